/**
 * jsonLength against JSON.stringify itself: random JSON values (with every kind of character a
 * string can hold), the values JSON.stringify treats specially, and every tool call's arguments in
 * the real pi fixture.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ownMessage } from "../session/projection.ts";
import { jsonLength, jsonStringLength } from "./json-length.ts";
import { loadFixture } from "./test-fixture.ts";

const stringified = (value: unknown) => JSON.stringify(value)?.length;

/** Strings of any UTF-16 code units (lone surrogates and controls included) and of whole characters. */
const anyString = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
  fc.string({
    unit: fc.constantFrom('"', "\\", "\n", "\t", "\u0000", "\u001f", "\u2028", "\ud800", "\udc00", "é"),
  }),
);

const value = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: "small" },
    anyString,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(tie("any")),
    fc.dictionary(anyString, tie("any")),
    fc.sparseArray(tie("any")),
  ),
})).any;

describe("jsonLength", () => {
  it("is JSON.stringify's length for any JSON-like value (property)", () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(jsonLength(v)).toBe(stringified(v));
      }),
      { numRuns: 2000 },
    );
  });

  it("escapes strings as JSON.stringify does (property, any code units)", () => {
    fc.assert(
      fc.property(anyString, (s) => {
        expect(jsonStringLength(s)).toBe(JSON.stringify(s).length);
      }),
      { numRuns: 2000 },
    );
  });

  it("leaves what JSON.stringify decides to JSON.stringify", () => {
    const cases: unknown[] = [
      new Date(0),
      { when: new Date(0), n: 1 },
      { toJSON: () => "x" },
      { toJSON: () => undefined },
      [{ toJSON: () => undefined }],
      { a: () => 1, b: Symbol("s"), c: undefined, d: 1 },
      [() => 1, Symbol("s"), undefined],
      new String("boxed"),
      Object.assign(Object.create(null), { a: 1 }),
      Object.assign([1, 2], { extra: 3 }),
      new (class Point {
        x = 1;
      })(),
      new Map([[1, 2]]),
      -0,
      1e21,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      "",
      [],
      {},
      { 2: "a", 1: "b", z: "c" },
    ];
    for (const c of cases) expect(jsonLength(c)).toBe(stringified(c));
    expect(jsonLength(undefined)).toBeUndefined();
    expect(jsonLength(() => 1)).toBeUndefined();
  });

  it("throws where JSON.stringify throws (a cycle, a bigint)", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    expect(() => JSON.stringify(cyclic)).toThrow(TypeError);
    expect(() => jsonLength(cyclic)).toThrow(TypeError);
    expect(() => jsonLength({ n: 1n })).toThrow(TypeError);
  });

  it("measures deep values that are not cyclic", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 500; i++) deep = i % 2 ? [deep] : { k: deep };
    expect(jsonLength(deep)).toBe(stringified(deep));
  });

  it("is JSON.stringify's length for every tool call's arguments in the real pi session", () => {
    let calls = 0;
    for (const entry of loadFixture().entries) {
      const message = ownMessage(entry);
      if (message?.role !== "assistant") continue;
      for (const block of message.content) {
        if (block.type !== "toolCall") continue;
        calls++;
        expect(jsonLength(block.arguments ?? {})).toBe(stringified(block.arguments ?? {}));
      }
    }
    expect(calls).toBeGreaterThan(100);
  });
});
