// Property tests of the sync merge: any interleaving of two devices' appends merges to the same tree.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runSteps } from "../session/steps.ts";
import type { SessionEntry } from "../session/types.ts";
import { createMerger, mergeEntries, positionAfterMerge } from "./merge.ts";

const entry = (id: string, parentId: string | null): SessionEntry => ({
  type: "message",
  id,
  parentId,
  timestamp: "2026-12-06T00:00:00.000Z",
  message: { role: "user", content: id, timestamp: 0 },
});

/** A device's appends: each picks a parent among the base and its own earlier appends. */
function appends(device: string, base: string[], picks: number[]): SessionEntry[] {
  const ids = [...base];
  return picks.map((p, i) => {
    const e = entry(`${device}${i}`, ids[p % ids.length]!);
    ids.push(e.id);
    return e;
  });
}

/** Splits entries into consecutive chunks at the given cut points. */
function chunked(entries: SessionEntry[], cuts: number[]): SessionEntry[][] {
  const at = [...new Set(cuts.map((c) => c % (entries.length + 1)))].sort((a, b) => a - b);
  const out: SessionEntry[][] = [];
  let from = 0;
  for (const c of [...at, entries.length]) {
    if (c > from) out.push(entries.slice(from, c));
    from = Math.max(from, c);
  }
  return out;
}

/** One device's file after merging the other's chunks in `order` (waiting entries carried over). */
function mergeInto(file: SessionEntry[], chunks: SessionEntry[][], order: number[]): SessionEntry[] {
  const out = [...file];
  let waiting: SessionEntry[] = [];
  const seq = [...new Set([...order.map((o) => o % Math.max(1, chunks.length)), ...chunks.keys()])];
  for (const i of seq) {
    const r = mergeEntries(new Set(out.map((e) => e.id)), [...waiting, ...(chunks[i] ?? [])]);
    out.push(...r.append);
    waiting = r.waiting;
  }
  return out;
}

const treeOf = (file: SessionEntry[]) => file.map((e) => `${e.id}<${e.parentId}`).sort();

describe("sync merge", () => {
  it("two devices appending at once end with the same tree: every entry once, parents first, no new root", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 25 }),
        fc.array(fc.nat(), { maxLength: 25 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (basePicks, aPicks, bPicks, aCuts, bCuts, aOrder, bOrder) => {
          const base = [entry("r", null), ...appends("base", ["r"], basePicks)];
          const baseIds = base.map((e) => e.id);
          const a = appends("a", baseIds, aPicks);
          const b = appends("b", baseIds, bPicks);
          const onA = mergeInto([...base, ...a], chunked(b, bCuts), bOrder);
          const onB = mergeInto([...base, ...b], chunked(a, aCuts), aOrder);
          expect(treeOf(onA)).toEqual(treeOf(onB));
          expect(onA.length).toBe(base.length + a.length + b.length);
          for (const file of [onA, onB]) {
            expect(new Set(file.map((e) => e.id)).size).toBe(file.length);
            expect(file.filter((e) => e.parentId === null).length).toBe(1);
            const seen = new Set<string>();
            for (const e of file) {
              if (e.parentId !== null) expect(seen.has(e.parentId)).toBe(true);
              seen.add(e.id);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("merging the same chunk again (a retry, a re-upload) adds nothing", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 20 }), fc.nat({ max: 5 }), (picks, repeats) => {
        const base = [entry("r", null)];
        const add = appends("a", ["r"], picks);
        let file = [...base];
        for (let i = 0; i <= repeats; i++) file = mergeInto(file, [add], [0]);
        expect(file.length).toBe(1 + add.length);
      }),
    );
  });

  it("fed chunk by chunk, in any order, it adds what one merge of them all adds: parents first, waiting the same", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.boolean(),
        (picks, cuts, order, orphan) => {
          const all = [...appends("a", ["r"], picks), ...(orphan ? [entry("o", "missing")] : [])];
          const chunks = chunked(all, cuts);
          const seq = [...new Set([...order.map((o) => o % Math.max(1, chunks.length)), ...chunks.keys()])];
          const merger = createMerger(new Set(["r"]));
          const added: SessionEntry[] = [];
          for (const i of seq)
            added.push(...runSteps(merger.add([...(chunks[i] ?? []), ...(chunks[i] ?? [])])));
          const once = mergeEntries(
            new Set(["r"]),
            seq.flatMap((i) => chunks[i] ?? []),
          );
          expect(added.map((e) => e.id).sort()).toEqual(once.append.map((e) => e.id).sort());
          expect(merger.waiting().map((e) => e.id)).toEqual(once.waiting.map((e) => e.id));
          // Each chunk was fed twice: its second copy is skipped whole.
          expect(merger.skipped()).toBe(once.skipped + all.length);
          const seen = new Set(["r"]);
          for (const e of added) {
            expect(seen.has(e.parentId!)).toBe(true);
            seen.add(e.id);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("an entry whose parent is not here waits instead of becoming a root", () => {
    const r = mergeEntries(new Set(["r"]), [entry("c", "missing"), entry("d", "c"), entry("e", "r")]);
    expect(r.append.map((e) => e.id)).toEqual(["e"]);
    expect(r.waiting.map((e) => e.id)).toEqual(["c", "d"]);
    const later = mergeEntries(new Set(["r", "e", "missing"]), r.waiting);
    expect(later.append.map((e) => e.id)).toEqual(["c", "d"]);
  });

  it("a child read before its parent in the batch comes after it", () => {
    const r = mergeEntries(new Set(["r"]), [entry("c", "p"), entry("p", "r"), entry("p", "r")]);
    expect(r.append.map((e) => e.id)).toEqual(["p", "c"]);
    expect(r.skipped).toBe(1);
  });
});

describe("position after a merge", () => {
  const file = [entry("r", null), entry("a", "r"), entry("b", "a"), entry("x", "r")];
  const parentOf = (id: string) => file.find((e) => e.id === id)?.parentId;
  const never = () => false;
  it("fast-forwards to the newest entry that continues the branch it stands on", () => {
    expect(positionAfterMerge(parentOf, "a", [file[2]!, file[3]!], never)).toBe("b");
  });
  it("stays when the merge only added other branches", () => {
    expect(positionAfterMerge(parentOf, "b", [file[3]!], never)).toBeUndefined();
  });
});
