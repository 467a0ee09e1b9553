/** The weak cache keeps WeakMap semantics (get, has, set over, delete) whatever it holds strongly. */
import { describe, expect, it } from "vitest";
import { weakCache } from "./weak-cache.ts";

describe("weakCache", () => {
  it("gets what was set, for every key, after more sets than it holds strongly; set over and delete", () => {
    const cache = weakCache<object, { n: number }>(2);
    const keys = Array.from({ length: 5 }, () => ({}));
    for (const [n, k] of keys.entries()) cache.set(k, { n });
    for (const [n, k] of keys.entries()) expect(cache.get(k)).toEqual({ n });
    cache.set(keys[4]!, { n: 40 });
    expect(cache.get(keys[4]!)).toEqual({ n: 40 });
    cache.delete(keys[3]!);
    expect(cache.has(keys[3]!)).toBe(false);
    expect(cache.get(keys[3]!)).toBeUndefined();
    expect(cache.has(keys[0]!)).toBe(true);
    expect(cache.get({})).toBeUndefined();
  });
});
