/** The per-array item memo of the coverage check: always the computed values, reused where the same objects come again. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createItemMemo } from "./coverage-cache.ts";

interface Item {
  n: number;
}

function counting() {
  let calls = 0;
  const memo = createItemMemo((item: Item) => {
    calls++;
    return `v${item.n}`;
  });
  return { memo, calls: () => calls };
}

describe("createItemMemo", () => {
  it("gives compute's values for any sequence of arrays, changed in place or not", () => {
    const pool = Array.from({ length: 12 }, (_, n) => ({ n }));
    const arrays = fc.array(fc.array(fc.nat(11), { maxLength: 15 }), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(arrays, fc.array(fc.tuple(fc.nat(14), fc.nat(11)), { maxLength: 5 }), (picks, edits) => {
        const { memo } = counting();
        let last: Item[] = [];
        for (const pick of picks) {
          const items = pick.map((i) => pool[i]!);
          expect(memo.map(items)).toEqual(items.map((i) => `v${i.n}`));
          last = items;
        }
        // The caller changes its array after the call: the next call sees the change.
        for (const [at, i] of edits) last[at % Math.max(1, last.length)] = pool[i]!;
        expect(memo.map(last)).toEqual(last.map((i) => `v${i.n}`));
      }),
      { numRuns: 300 },
    );
  });

  it("computes each object once when the same array, a grown one or a shifted one comes again", () => {
    const items = Array.from({ length: 100 }, (_, n) => ({ n }));
    const { memo, calls } = counting();
    memo.map(items);
    expect(calls()).toBe(100);
    memo.map(items);
    expect(calls()).toBe(100);
    // Re-planned: a new array, one more message at the end.
    const grown = [...items, { n: 100 }];
    memo.map(grown);
    expect(calls()).toBe(101);
    // A range that starts later (a new compaction), and one that starts earlier.
    memo.map(grown.slice(40));
    expect(calls()).toBe(101);
    const earlier = [{ n: -1 }, ...grown];
    expect(memo.map(earlier)).toEqual(earlier.map((i) => `v${i.n}`));
    expect(calls()).toBe(102);
  });
});
