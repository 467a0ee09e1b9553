import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../core/session/types.ts";
import { buildChunks, parseChunkText, sessionFileName, utf8Length } from "./chunks.ts";

const entryArb = fc.record({
  type: fc.constantFrom("message", "label", "custom", "whatever"),
  id: fc.stringMatching(/^[0-9a-f]{8}$/),
  parentId: fc.option(fc.stringMatching(/^[0-9a-f]{8}$/), { nil: null }),
  timestamp: fc.constant("2026-01-01T00:00:00.000Z"),
  text: fc.string({ unit: "binary", maxLength: 200 }),
}) as fc.Arbitrary<SessionEntry>;

describe("chunks", () => {
  it("round-trips any entries through chunk texts, in order, never splitting an entry", () => {
    fc.assert(
      fc.property(
        fc.array(entryArb, { maxLength: 60 }),
        fc.integer({ min: 1, max: 2000 }),
        (entries, target) => {
          const chunks = buildChunks(entries, target, 7);
          expect(chunks.reduce((n, c) => n + c.count, 0)).toBe(entries.length);
          for (const c of chunks) {
            expect(c.count).toBeLessThanOrEqual(7);
            expect(c.text.endsWith("\n")).toBe(true);
            expect(c.bytes).toBe(new TextEncoder().encode(c.text).length);
          }
          expect(chunks.flatMap((c) => parseChunkText(c.text))).toEqual(entries);
        },
      ),
    );
  });

  it("concatenated chunk texts are the JSONL of the entries", () => {
    const entries = [
      { type: "label", id: "a", parentId: null, timestamp: "t", targetId: "x", label: "é\u2028" },
      { type: "x", id: "b", parentId: "a", timestamp: "t", extra: { k: [1, 2] } },
    ] as SessionEntry[];
    const text = buildChunks(entries, 1)
      .map((c) => c.text)
      .join("");
    expect(text).toBe(`${entries.map((e) => JSON.stringify(e)).join("\n")}\n`);
  });

  it("utf8Length matches TextEncoder on any string, including lone surrogates", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(utf8Length(s)).toBe(new TextEncoder().encode(s).length);
      }),
    );
    expect(utf8Length("\ud800")).toBe(3);
    expect(utf8Length("😀")).toBe(4);
  });

  it("names files like pi: timestamp with ':' and '.' replaced, then the id", () => {
    expect(sessionFileName({ id: "abc-123", timestamp: "2026-03-01T10:20:30.123Z" })).toBe(
      "2026-03-01T10-20-30-123Z_abc-123.jsonl",
    );
  });
});
