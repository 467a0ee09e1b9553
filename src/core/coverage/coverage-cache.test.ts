/** The per-array item memo of the coverage check: always the computed values, reused where the same objects come again. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planCompaction } from "../compaction/plan.ts";
import { loadFixture, pathThroughLine } from "../compaction/test-fixture.ts";
import { coverageRanges, extractCoverageItems } from "./coverage.ts";
import { createItemMemo } from "./coverage-cache.ts";
import { startCoverageExtraction } from "./coverage-extract.ts";

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

describe("a memo cursor", () => {
  it("gives compute's values one at a time, and a cursor closed early leaves what it read for the next array", () => {
    const pool = Array.from({ length: 12 }, (_, n) => ({ n }));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(fc.nat(11), { maxLength: 15 }), fc.nat(15)), {
          minLength: 1,
          maxLength: 8,
        }),
        (runs) => {
          const { memo } = counting();
          for (const [pick, stopAt] of runs) {
            const items = pick.map((i) => pool[i]!);
            const cursor = memo.open(items);
            while (cursor.done < Math.min(stopAt, items.length)) cursor.next();
            cursor.close();
            const read = cursor.values();
            expect(read).toEqual(items.slice(0, read.length).map((i) => `v${i.n}`));
            expect(memo.map(items)).toEqual(items.map((i) => `v${i.n}`));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reuses a half-read array: the rest is computed, the read half is not", () => {
    const items = Array.from({ length: 100 }, (_, n) => ({ n }));
    const { memo, calls } = counting();
    const cursor = memo.open(items);
    for (let i = 0; i < 60; i++) cursor.next();
    cursor.close();
    expect(calls()).toBe(60);
    // The cut moved: a new array over the same messages.
    expect(memo.map([...items])).toEqual(items.map((i) => `v${i.n}`));
    expect(calls()).toBe(100);
  });
});

describe("coverage items with the memo", () => {
  it("are the same read in slices of any size, given up and started again, as read at once", () => {
    const fixture = loadFixture();
    const planned = planCompaction(pathThroughLine(fixture, fixture.lines.at(-1)!), {
      keepRecentTokens: 3000,
      reserveTokens: 16384,
    });
    if (!planned.ok) throw new Error(planned.reason);
    const ranges = coverageRanges(planned.plan);
    const fresh = () => ranges.map((r) => ({ ...r, messages: structuredClone(r.messages) }));
    const atOnce = extractCoverageItems(fresh());
    const total = ranges.reduce((n, r) => n + r.messages.length, 0);
    expect(atOnce.length).toBeGreaterThan(20);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 0, max: 2000 }), (slice, giveUpAt) => {
        const own = fresh();
        // A first extraction given up part way (the person moved the cut), then a new one.
        const first = startCoverageExtraction(own);
        for (let read = 0; read < giveUpAt && !first.step(slice); read += slice);
        first.close();
        const again = startCoverageExtraction(own.map((r) => ({ ...r, messages: [...r.messages] })));
        let calls = 1;
        while (!again.step(slice)) calls++;
        // Each call read `slice` messages at most: as many calls as slices.
        expect(calls).toBe(Math.max(1, Math.ceil(total / slice)));
        expect(again.items()).toEqual(atOnce);
      }),
      { numRuns: 40 },
    );
  });

  it("are the same cold, warm, re-planned and on a cut range, at many leaves of the real fixture", () => {
    const fixture = loadFixture();
    const step = Math.floor(fixture.lines.length / 12);
    let checked = 0;
    for (let at = step; at < fixture.lines.length; at += step) {
      const planned = planCompaction(pathThroughLine(fixture, fixture.lines[at]!), {
        keepRecentTokens: 3000,
        reserveTokens: 16384,
      });
      if (!planned.ok) continue;
      checked++;
      const ranges = coverageRanges(planned.plan);
      // Cold: message objects never seen (a deep copy); then the same arrays; then new arrays.
      const cold = extractCoverageItems(ranges.map((r) => ({ ...r, messages: structuredClone(r.messages) })));
      expect(extractCoverageItems(ranges)).toEqual(cold);
      expect(extractCoverageItems(ranges)).toEqual(cold);
      expect(extractCoverageItems(ranges.map((r) => ({ ...r, messages: [...r.messages] })))).toEqual(cold);
      // A range that starts later reads the rest from the memo and matches a cold read of it.
      const cut = ranges.map((r) => ({ messages: r.messages.slice(1), entryIds: r.entryIds.slice(1) }));
      expect(extractCoverageItems(cut)).toEqual(
        extractCoverageItems(cut.map((r) => ({ ...r, messages: structuredClone(r.messages) }))),
      );
      expect(cold.length).toBeGreaterThan(0);
    }
    expect(checked).toBeGreaterThan(8);
  });
});
