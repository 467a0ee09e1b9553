/**
 * Properties of the tree view: rows cover every entry once, at one level per branch point above it;
 * rows after moves equal a reference build, an incremental build equals one at once, and moves are
 * transparent (as if contracted).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displayPositionId, isPositionMarker } from "./moves.ts";
import {
  buildTreeData,
  entriesWithSiblings,
  extendTreeData,
  shownChildren,
  siblingsOf,
  type TreeData,
} from "./session-tree.ts";
import { buildTreeRows, rowIsLeaf } from "./session-tree-rows.ts";
import { assistant, entry, msg, user } from "./test-builders.ts";
import { buildTreeIndex, extendTreeIndex } from "./tree.ts";
import { appendingTreeData, describeRows, move } from "./tree-test-support.ts";
import type { SessionEntry } from "./types.ts";

const treeData = appendingTreeData();
describe("rows of random trees", () => {
  it("property: rows cover every visible entry once, depth rises only at branch points", () => {
    const arb = fc.array(fc.tuple(fc.nat(), fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 60 });
    fc.assert(
      fc.property(arb, fc.boolean(), (specs, expandAll) => {
        const entries: SessionEntry[] = specs.map(([p, root, isUser], i) =>
          msg(
            `e${i}`,
            i === 0 || (root && i % 7 === 0) ? null : `e${p % i}`,
            isUser ? user("u") : assistant("a"),
          ),
        );
        const data = treeData(entries);
        const first = buildTreeRows(data, new Set(), 2);
        const expanded = new Set(first.filter((r) => r.kind === "run").map((r) => r.key));
        const rows = expandAll ? buildTreeRows(data, expanded, 2) : first;
        // Expected depth, counted from the entries alone: one level per ancestor with several children.
        const childCount = new Map<string | null, number>();
        for (const e of entries) childCount.set(e.parentId, (childCount.get(e.parentId) ?? 0) + 1);
        const byId = new Map(entries.map((e) => [e.id, e]));
        const depthOf = (e: SessionEntry): number => {
          let d = 0;
          for (let p = e.parentId; p !== null; p = byId.get(p)!.parentId) if (childCount.get(p)! > 1) d++;
          return d;
        };
        const ids: string[] = [];
        for (const r of rows) {
          if (r.kind === "entry") {
            ids.push(r.entry.id);
            expect(r.depth).toBe(depthOf(r.entry));
          } else {
            let e: SessionEntry | undefined = r.last;
            const chainIds: string[] = [];
            for (let k = 0; k < r.count && e; k++) {
              chainIds.unshift(e.id);
              e = e.parentId === null ? undefined : data.index.byId.get(e.parentId);
            }
            expect(chainIds[0]).toBe(r.first.id);
            // A run lies between branch points: every entry in it has the run's depth.
            for (const id of chainIds) expect(depthOf(byId.get(id)!)).toBe(r.depth);
            ids.push(...chainIds);
          }
        }
        expect(new Set(ids).size).toBe(entries.length);
        expect(ids.length).toBe(entries.length);
        if (expandAll) expect(rows.every((r) => r.kind === "entry")).toBe(true);
        return true;
      }),
      { numRuns: 200 },
    );
  });

  it.each(["move", "leaf"] as const)(
    "property: after moves (%s entries) and appends, the rows equal a from-scratch build where the position has its own row",
    (kind) => {
      // Mostly linear chains (runs to collapse), some forks.
      const arb = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 9 }), fc.boolean()), {
        minLength: 1,
        maxLength: 50,
      });
      const stepArb = fc.tuple(fc.boolean(), fc.nat());
      // One set for every call, as the store gives: the rows' structure is then reused.
      const NONE = new Set<string>();
      fc.assert(
        fc.property(arb, fc.array(stepArb, { minLength: 1, maxLength: 8 }), (specs, steps) => {
          let entries: SessionEntry[] = specs.map(([p, fork, isUser], i) =>
            msg(
              `e${i}`,
              i === 0 ? null : `e${fork === 0 ? p % i : i - 1}`,
              isUser ? user("u") : assistant("a"),
            ),
          );
          let before = buildTreeRows(treeData(entries), NONE, 3);
          for (const [k, [append, m]] of steps.entries()) {
            const ids = entries.filter((e) => !isPositionMarker(e)).map((e) => e.id);
            const target = ids[m % ids.length]!;
            const data0 = treeData(entries);
            const moved =
              kind === "move"
                ? move(`L${k}`, target, data0.leafId)
                : entry("leaf", `L${k}`, entries.at(-1)!.id, { targetId: target });
            entries = append
              ? [...entries, msg(`n${k}`, data0.leafId, assistant("new"))]
              : [...entries, moved];
            const data = treeData(entries);
            const rows = buildTreeRows(data, NONE, 3);
            expect(describeRows(rows)).toEqual(referenceRows(data, 3));
            expect(rows.filter((r) => rowIsLeaf(data, r)).map((r) => r.key)).toEqual([data.positionId]);
            if (!append) expect(Math.abs(rows.length - before.length)).toBeLessThanOrEqual(4);
            before = rows;
          }
          return true;
        }),
        { numRuns: 300 },
      );
    },
  );
});

/**
 * A plain recursive build of the rows (the current position is one of the entries with a row of
 * their own), with the shown children found the slow way: every entry that is no position marker,
 * under its parent seen through markers.
 */
function referenceRows(data: TreeData, minRun: number): string[] {
  const out: string[] = [];
  const { byId } = data.index;
  const shownParent = (e: SessionEntry) => (e.parentId === null ? null : displayPositionId(e.parentId, byId));
  const visible = data.entries.filter((e) => !isPositionMarker(e));
  const kids = (id: string | null) => visible.filter((e) => shownParent(e) === id);
  let run: { id: string; depth: number }[] = [];
  const flush = () => {
    if (run.length >= minRun) out.push(`${"  ".repeat(run[0]!.depth)}…${run.length}`);
    else for (const r of run) out.push(`${"  ".repeat(r.depth)}${r.id}`);
    run = [];
  };
  const visit = (e: SessionEntry, depth: number, siblings: number, root: boolean) => {
    const children = kids(e.id);
    const own =
      root ||
      children.length !== 1 ||
      siblings > 1 ||
      e.id === data.positionId ||
      data.labels.has(e.id) ||
      e.type === "compaction" ||
      e.type === "branch_summary";
    if (own) {
      flush();
      out.push(`${"  ".repeat(depth)}${e.id}`);
    } else run.push({ id: e.id, depth });
    if (children.length === 1) visit(children[0]!, depth, 1, false);
    else {
      flush();
      for (const c of children) visit(c, depth + 1, children.length, false);
    }
  };
  const roots = kids(null);
  for (const root of roots) visit(root, 0, roots.length, true);
  flush();
  return out;
}

/** Ops that build a session the way the app and pi do. */
type Op =
  | { kind: "say"; user: boolean }
  | { kind: "move"; pick: number; toNull: boolean }
  | { kind: "label"; pick: number }
  | { kind: "leaf"; pick: number }
  | { kind: "orphan" }
  | { kind: "adopt" }
  /** An id written again (a damaged file): a message or a move. */
  | { kind: "dup"; pick: number; marker: boolean };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("say" as const), user: fc.boolean() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("move" as const),
      pick: fc.nat(),
      toNull: fc.integer({ min: 0, max: 4 }).map((k) => k === 0),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("label" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("leaf" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "orphan" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "adopt" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("dup" as const), pick: fc.nat(), marker: fc.boolean() }),
  },
);

/** The entries the ops write, in file order. */
function play(ops: readonly Op[]): SessionEntry[] {
  const out: SessionEntry[] = [];
  const missing: string[] = [];
  let n = 0;
  const leaf = () => {
    const last = out.at(-1);
    if (!last) return null;
    return last.type === "leaf" ? ((last as { targetId: string | null }).targetId ?? null) : last.id;
  };
  const shownIds = () => out.filter((e) => !isPositionMarker(e)).map((e) => e.id);
  for (const op of ops) {
    const id = `e${n++}`;
    const ids = shownIds();
    const pick = (k: number) => (ids.length === 0 ? null : ids[k % ids.length]!);
    if (op.kind === "say") out.push(msg(id, leaf(), op.user ? user("u") : assistant("a")));
    else if (op.kind === "move") out.push(move(id, op.toNull ? null : pick(op.pick), leaf()));
    else if (op.kind === "label" && ids.length > 0)
      out.push(entry("label", id, leaf(), { targetId: pick(op.pick), label: `L${op.pick % 3}` }));
    else if (op.kind === "leaf") out.push(entry("leaf", id, leaf(), { targetId: pick(op.pick) }));
    else if (op.kind === "orphan") {
      missing.push(`gone${n}`);
      out.push(msg(id, `gone${n}`, user("o")));
    } else if (op.kind === "dup" && out.length > 0) {
      const again = out[op.pick % out.length]!.id;
      out.push(op.marker ? move(again, pick(op.pick), leaf()) : msg(again, leaf(), user("dup")));
    } else if (op.kind === "adopt" && missing.length > 0)
      out.push(msg(missing.shift()!, leaf(), assistant("p")));
  }
  return out;
}

/** Everything a TreeData says, as plain values (map order aside). */
function snapshot(data: TreeData) {
  return {
    leafId: data.leafId,
    positionId: data.positionId,
    path: data.path.map((e) => e.id),
    pathIds: [...data.pathIds].sort(),
    labels: [...data.labels].sort(),
    // The shown children of the roots and of every entry that is no marker.
    shown: [null, ...data.entries.filter((e) => !isPositionMarker(e)).map((e) => e.id)].map(
      (id) => [String(id), shownChildren(data, id).map((e) => e.id)] as const,
    ),
    rows: describeRows(buildTreeRows(data, new Set(), 3)),
  };
}

describe("properties of the tree model", () => {
  it("property: built incrementally (appends of any size) equals built at once", () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { minLength: 1, maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 30 }),
        (ops, sizes) => {
          const all = play(ops);
          let data: TreeData | undefined;
          let at = 0;
          for (let s = 0; at < all.length; s++) {
            at = Math.min(all.length, at + sizes[s % sizes.length]!);
            const entries = all.slice(0, at);
            data = (data && extendTreeData(data, entries)) ?? buildTreeData(entries);
            expect(snapshot(data)).toEqual(snapshot(buildTreeData(entries)));
          }
          return true;
        },
      ),
      { numRuns: 300 },
    );
  });

  it("property: an index grown as the entries arrive (parts of any size) gives what one built at once does", () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { minLength: 1, maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 30 }),
        (ops, sizes) => {
          const all = play(ops);
          const filling: SessionEntry[] = [];
          const index = buildTreeIndex([]);
          for (let s = 0; filling.length < all.length; s++) {
            const from = filling.length;
            filling.push(...all.slice(from, from + sizes[s % sizes.length]!));
            extendTreeIndex(index, filling, from);
          }
          expect(index).toEqual(buildTreeIndex(all));
          expect(snapshot(buildTreeData(all, index))).toEqual(snapshot(buildTreeData(all)));
          return true;
        },
      ),
      { numRuns: 300 },
    );
  });

  it("property: the entries with siblings are those whose siblingsOf holds more than themselves", () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 60 }), (ops) => {
        const data = buildTreeData(play(ops));
        const found = entriesWithSiblings(data);
        for (const e of data.entries)
          if (!isPositionMarker(e)) expect(found.has(e)).toBe(siblingsOf(data, e).length > 1);
        for (const e of found) expect(isPositionMarker(e)).toBe(false);
        return true;
      }),
      { numRuns: 500 },
    );
  });

  it("property: moves are transparent (the tree equals the same session with moves contracted)", () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 60 }), (ops) => {
        // Unique ids only: with an id written twice, "the same session without moves" is ambiguous.
        const entries = play(ops.filter((o) => o.kind !== "dup"));
        const data = buildTreeData(entries);
        // The same session without markers, each entry hung under the entry its parent stands for;
        // a final old-style leaf entry puts the leaf on the position (a marker too, never shown).
        const { byId } = data.index;
        const contracted: SessionEntry[] = entries
          .filter((e) => !isPositionMarker(e))
          .map((e) => ({ ...e, parentId: e.parentId === null ? null : displayPositionId(e.parentId, byId) }));
        contracted.push(entry("leaf", "final", contracted.at(-1)?.id ?? null, { targetId: data.positionId }));
        const plain = buildTreeData(contracted);
        expect(plain.positionId).toBe(data.positionId);
        const a = snapshot(data);
        const b = snapshot(plain);
        expect(a.rows).toEqual(b.rows);
        expect(a.shown).toEqual(b.shown);
        expect(a.labels).toEqual(b.labels);
        // What the timeline lists: the path without markers.
        expect(data.path.filter((e) => !isPositionMarker(e)).map((e) => e.id)).toEqual(
          plain.path.filter((e) => !isPositionMarker(e)).map((e) => e.id),
        );
        for (const e of contracted.filter((x) => !isPositionMarker(x)))
          expect(siblingsOf(data, byId.get(e.id) ?? e).map((s) => s.id)).toEqual(
            siblingsOf(plain, plain.index.byId.get(e.id) ?? e).map((s) => s.id),
          );
        return true;
      }),
      { numRuns: 300 },
    );
  });
});
