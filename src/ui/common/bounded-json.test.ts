/** Bounded JSON: plain values as JSON.stringify writes them, cut at a depth or size limit, cycles named. */
import { describe, expect, it } from "vitest";
import { boundedJson } from "./bounded-json.ts";

function deep(levels: number): unknown {
  const root: Record<string, unknown> = {};
  let at = root;
  for (let i = 0; i < levels; i++) {
    const next: Record<string, unknown> = {};
    at.a = next;
    at = next;
  }
  at.leaf = "bottom";
  return root;
}

describe("boundedJson", () => {
  it("writes ordinary values as JSON.stringify with an indent does", () => {
    const value = { a: 1, b: [true, null, "x\n"], c: { d: {} }, e: [] };
    expect(boundedJson(value)).toEqual({ text: JSON.stringify(value, null, 2), truncated: false });
    expect(boundedJson(value, { indent: 0 }).text).toBe(JSON.stringify(value));
  });

  it("renders a 100k-deep object, cut at the depth limit", () => {
    const r = boundedJson(deep(100_000), { maxDepth: 5, indent: 0 });
    expect(r.truncated).toBe(true);
    expect(r.text).toBe('{"a":{"a":{"a":{"a":{"a":{… 1 key}}}}}}');
  });

  it("stops at the character budget", () => {
    const r = boundedJson(
      Array.from({ length: 100_000 }, (_, i) => i),
      { maxChars: 1000 },
    );
    expect(r.truncated).toBe(true);
    expect(r.text.length).toBeLessThan(1100);
    expect(r.text).toContain("cut at 1,000 characters");
  });

  it("names a circular reference instead of looping", () => {
    const a: Record<string, unknown> = { x: 1 };
    a.self = a;
    expect(boundedJson(a, { indent: 0 }).text).toBe('{"x":1,"self":"[circular]"}');
  });
});
