// JSON written in pieces: the pieces make JSON.stringify's text, and a sink that fills up gets a prefix of it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type PieceSink, writeJsonPieces } from "./json-pieces.ts";

/** A sink that fills up after `limit` characters (then ignores what it is given). */
function collect(limit = Number.POSITIVE_INFINITY): PieceSink & { text: string } {
  return {
    text: "",
    add(piece) {
      if (!this.full) this.text += piece;
    },
    get full() {
      return this.text.length > limit;
    },
  };
}

const values = fc.oneof(
  fc.jsonValue(),
  fc.anything({ withBoxedValues: true, withDate: true, withSparseArray: true, withNullPrototype: true }),
  fc.string({ unit: "binary", minLength: 60, maxLength: 300 }),
);

describe("writeJsonPieces", () => {
  it("writes JSON.stringify's text, for any value", () => {
    fc.assert(
      fc.property(values, (value) => {
        const sink = collect();
        const written = writeJsonPieces(value, sink);
        const expected = JSON.stringify(value);
        expect(written).toBe(expected !== undefined);
        expect(sink.text).toBe(expected ?? "");
      }),
      { numRuns: 1500 },
    );
  });

  it("stops soon after the sink is full, with a prefix of the text", () => {
    fc.assert(
      fc.property(values, fc.nat(200), (value, limit) => {
        const sink = collect(limit);
        writeJsonPieces(value, sink);
        const whole = JSON.stringify(value) ?? "";
        expect(whole.startsWith(sink.text)).toBe(true);
        expect(sink.text.length).toBeGreaterThanOrEqual(Math.min(whole.length, limit + 1));
      }),
      { numRuns: 1500 },
    );
  });

  it("never splits a surrogate pair between pieces, and escapes a lone one as JSON does", () => {
    const text = `${"a".repeat(63)}😀${"b".repeat(70)}\ud800x`;
    const pieces: string[] = [];
    writeJsonPieces(text, { add: (p) => pieces.push(p), full: false });
    expect(pieces.join("")).toBe(JSON.stringify(text));
    expect(pieces.some((p) => p.includes("😀"))).toBe(true);
  });

  it("reads no more of a long string than the sink takes", () => {
    const sink = collect(100);
    writeJsonPieces({ content: "x".repeat(10_000_000) }, sink);
    expect(sink.text.length).toBeLessThan(200);
  });
});
