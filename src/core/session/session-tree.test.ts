import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PI_FIXTURE } from "./fixture-path.ts";
import { buildMoveEntry, displayPositionId, isPositionMarker } from "./moves.ts";
import { parseSessionJsonl } from "./parse.ts";
import { buildTreeData, extendTreeData, latestTip, siblingsOf, type TreeData } from "./session-tree.ts";
import { buildTreeRows, rowIsLeaf, rowOnPath, type TreeRow } from "./session-tree-rows.ts";
import { assistant, entry, msg, TS, user } from "./test-builders.ts";
import type { SessionEntry } from "./types.ts";

/** The UI's use: extend the data of the previous array when the next one appends to it. */
let latest: TreeData | undefined;
function treeData(entries: readonly SessionEntry[]): TreeData {
  latest =
    (latest && latest.entries === entries ? latest : undefined) ??
    (latest && extendTreeData(latest, entries)) ??
    buildTreeData(entries);
  return latest;
}
const move = (id: string, targetId: string | null, fromId: string | null = null) =>
  buildMoveEntry({ id, timestamp: TS, targetId, fromId });

const step = (text: string) => ({ ...assistant(text), stopReason: "toolUse" as const });

// u1 -> a1 -> a2 -> a3 -> u2 -> a4 (branch 1); a3 -> u3 -> a5 -> a6 (branch 2, the last entry: leaf)
// a1, a2 are tool-use steps (collapsible); the others end a turn or start one.
const session: SessionEntry[] = [
  msg("u1", null, user("start")),
  msg("a1", "u1", step("x")),
  msg("a2", "a1", step("y")),
  msg("a3", "a2", assistant("z")),
  msg("u2", "a3", user("first try")),
  msg("a4", "u2", assistant("reply 1")),
  msg("u3", "a3", user("second try")),
  msg("a5", "u3", assistant("reply 2")),
  msg("a6", "a5", assistant("reply 3")),
];

const describeRows = (rows: TreeRow[]) =>
  rows.map((r) =>
    r.kind === "run" ? `${"  ".repeat(r.depth)}…${r.count}` : `${"  ".repeat(r.depth)}${r.entry.id}`,
  );

describe("buildTreeRows", () => {
  it("indents branches, collapses linear runs and marks the path and leaf", () => {
    const data = treeData(session);
    const rows = buildTreeRows(data, new Set(), 2);
    // a1, a2 collapse; a3 is a branch point; branch starts, tips and the leaf have their own rows
    expect(describeRows(rows)).toEqual(["u1", "…2", "a3", "  u2", "  a4", "  u3", "  a5", "  a6"]);
    const leaf = rows.find((r) => rowIsLeaf(data, r));
    expect(leaf?.kind === "entry" && leaf.entry.id).toBe("a6");
    const onPath = rows
      .filter((r) => rowOnPath(data, r))
      .map((r) => (r.kind === "entry" ? r.entry.id : r.key));
    expect(onPath).toEqual(["u1", "run:a1", "a3", "u3", "a5", "a6"]);
    const u2 = rows.find((r) => r.kind === "entry" && r.entry.id === "u2");
    expect(u2?.kind === "entry" && u2.sibling).toEqual({ index: 1, total: 2 });
  });

  it("expands a run on request and hides leaf entries; a leaf entry moves the highlight", () => {
    const moved = [...session, entry("leaf", "L1", "a6", { targetId: "a4" })];
    const data = treeData(moved);
    const rows = buildTreeRows(data, new Set(["run:a1"]), 2);
    expect(describeRows(rows)).toEqual(["u1", "a1", "a2", "a3", "  u2", "  a4", "  u3", "  a5", "  a6"]);
    const leaf = rows.find((r) => rowIsLeaf(data, r));
    expect(leaf?.kind === "entry" && leaf.entry.id).toBe("a4");
    expect(rows.some((r) => r.kind === "entry" && r.entry.id === "L1")).toBe(false);
  });

  it("keeps labelled entries and summaries on their own rows", () => {
    const labelled = [...session, entry("label", "lb", "a6", { targetId: "a2", label: "here" })];
    const rows = buildTreeRows(treeData(labelled), new Set(), 2);
    const a2 = rows.find((r) => r.kind === "entry" && r.entry.id === "a2");
    expect(a2?.kind === "entry" && a2.label).toBe("here");
  });

  it("extends the cached index when entries are appended (leaf moves, labels)", () => {
    const base = session.slice();
    const before = treeData(base);
    const after = treeData([
      ...base,
      entry("label", "lb", "a6", { targetId: "u2", label: "x" }),
      entry("leaf", "L2", "lb", { targetId: "a4" }),
    ]);
    expect(after.index).toBe(before.index);
    expect(after.leafId).toBe("a4");
    expect([...after.pathIds]).toEqual(["u1", "a1", "a2", "a3", "u2", "a4"]);
    expect(after.labels.get("u2")).toBe("x");
    const cleared = treeData([...after.entries, entry("label", "lc", "a4", { targetId: "u2" })]);
    expect(cleared.labels.has("u2")).toBe(false);
    expect(cleared.leafId).toBe("lc");
    expect(cleared.index.children.get("a4")?.map((e) => e.id)).toEqual(["lc"]);
  });

  it("latestTip and siblingsOf", () => {
    const data = treeData(session);
    expect(latestTip(data, data.index.byId.get("u2")!).id).toBe("a4");
    expect(latestTip(data, data.index.byId.get("a3")!).id).toBe("a6");
    expect(siblingsOf(data, data.index.byId.get("u3")!).map((e) => e.id)).toEqual(["u2", "u3"]);
    expect(siblingsOf(data, data.index.byId.get("u1")!).map((e) => e.id)).toEqual(["u1"]);
  });

  it("on the real pi fixture: every entry is in exactly one row, and the path is linear", () => {
    const parsed = parseSessionJsonl(readFileSync(PI_FIXTURE, "utf8"));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const entries = parsed.value.entries;
    const rows = buildTreeRows(treeData(entries));
    // one linear path: the root, the two compactions and the leaf; runs between them
    expect(rows.map((r) => (r.kind === "run" ? "run" : r.entry.type))).toEqual([
      "message",
      "run",
      "compaction",
      "run",
      "compaction",
      "run",
      entries.at(-1)!.type,
    ]);
    const covered = rows.reduce((n, r) => n + (r.kind === "run" ? r.count : 1), 0);
    expect(covered).toBe(entries.length);
    expect(rows.length).toBeLessThan(entries.length);
    expect(rows.every((r) => r.depth === 0)).toBe(true);
  });

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
        const ids: string[] = [];
        for (const r of rows) {
          if (r.kind === "entry") ids.push(r.entry.id);
          else {
            let e: SessionEntry | undefined = r.last;
            const chainIds: string[] = [];
            for (let k = 0; k < r.count && e; k++) {
              chainIds.unshift(e.id);
              e = e.parentId === null ? undefined : data.index.byId.get(e.parentId);
            }
            expect(chainIds[0]).toBe(r.first.id);
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

describe("moves in the tree (cutpoint.move entries)", () => {
  const ids = (list: readonly SessionEntry[]) => list.map((e) => e.id);

  it("Continue from here: the position is the target, the move is no row", () => {
    const data = buildTreeData([...session, move("m1", "a4", "a6")]);
    expect(data.leafId).toBe("m1");
    expect(data.positionId).toBe("a4");
    expect(ids(data.path)).toEqual(["u1", "a1", "a2", "a3", "u2", "a4", "m1"]);
    const rows = buildTreeRows(data, new Set(), 2);
    expect(describeRows(rows)).toEqual(["u1", "…2", "a3", "  u2", "  a4", "  u3", "  a5", "  a6"]);
    expect(rows.filter((r) => rowIsLeaf(data, r)).map((r) => r.key)).toEqual(["a4"]);
  });

  it("Edit and resend: the new message is a sibling of the one edited, never of the move", () => {
    // Edit u3 (parent a3): move to a3, then the new user message hangs under the move.
    const data = buildTreeData([...session, move("m1", "a3", "a6"), msg("u4", "m1", user("third try"))]);
    const u4 = data.index.byId.get("u4")!;
    expect(ids(siblingsOf(data, u4))).toEqual(["u2", "u3", "u4"]);
    expect(ids(siblingsOf(data, data.index.byId.get("u3")!))).toEqual(["u2", "u3", "u4"]);
    expect(data.positionId).toBe("u4");
    const rows = buildTreeRows(data, new Set(), 2);
    expect(describeRows(rows)).toEqual(["u1", "…2", "a3", "  u2", "  a4", "  u3", "  a5", "  a6", "  u4"]);
    const a3 = rows.find((r) => r.kind === "entry" && r.entry.id === "a3");
    expect(a3?.kind === "entry" && a3.childCount).toBe(3);
    const u4row = rows.find((r) => r.kind === "entry" && r.entry.id === "u4");
    expect(u4row?.kind === "entry" && u4row.sibling).toEqual({ index: 3, total: 3 });
  });

  it("a move left again (childless) is not shown; consecutive moves stand for the first target", () => {
    const data = buildTreeData([
      ...session,
      move("m1", "a4", "a6"),
      move("m2", "a1", "m1"),
      move("m3", "m2", "m2"),
    ]);
    expect(data.positionId).toBe("a1");
    const rows = buildTreeRows(data, new Set(), 2);
    expect(rows.some((r) => r.kind === "entry" && r.entry.type === "custom")).toBe(false);
    expect(ids(siblingsOf(data, data.index.byId.get("u2")!))).toEqual(["u2", "u3"]);
    expect(rows.filter((r) => rowIsLeaf(data, r)).map((r) => r.key)).toEqual(["a1"]);
  });

  it("a move before the first entry: what follows is a new root", () => {
    const data = buildTreeData([...session, move("m0", null, "a6"), msg("r2", "m0", user("again"))]);
    expect(ids(siblingsOf(data, data.index.byId.get("u1")!))).toEqual(["u1", "r2"]);
    const before = buildTreeData([...session, move("m0", null, "a6")]);
    expect(before.positionId).toBeNull();
    expect(before.path.map((e) => e.id)).toEqual(["m0"]);
    expect(buildTreeRows(before).some((r) => rowIsLeaf(before, r))).toBe(false);
  });

  it("labels on a move target resolve; the label entry hangs under the target", () => {
    const data = buildTreeData([
      ...session,
      move("m1", "a4", "a6"),
      entry("label", "lb", "m1", { targetId: "a4", label: "checkpoint" }),
    ]);
    expect(data.labels.get("a4")).toBe("checkpoint");
    expect(data.positionId).toBe("lb");
    expect(ids(data.shown.get("a4") ?? [])).toEqual(["lb"]);
  });

  it("latestTip: a branch is entered where it was left, a move standing for its target", () => {
    // On branch 2, moved back to a5 (Continue from here), then went to branch 1.
    const entries = [...session, move("m1", "a5", "a6"), move("m2", "a4", "m1")];
    const data = buildTreeData(entries);
    expect(latestTip(data, data.index.byId.get("u3")!).id).toBe("a5");
    expect(latestTip(data, data.index.byId.get("u2")!).id).toBe("a4");
    // Without moves: the entry written last.
    const plain = buildTreeData(session);
    expect(latestTip(plain, plain.index.byId.get("u3")!).id).toBe("a6");
  });

  it("an orphan whose parent arrives later is adopted (built afresh)", () => {
    const first = buildTreeData([...session, msg("o2", "late", user("orphan"))]);
    expect(ids(first.shown.get(null) ?? [])).toEqual(["u1", "o2"]);
    const next = [...first.entries, msg("late", "a6", assistant("parent"))];
    expect(extendTreeData(first, next)).toBeUndefined();
    expect(ids(buildTreeData(next).shown.get("late") ?? [])).toEqual(["o2"]);
  });
});

/** Ops that build a session the way the app and pi do. */
type Op =
  | { kind: "say"; user: boolean }
  | { kind: "move"; pick: number; toNull: boolean }
  | { kind: "label"; pick: number }
  | { kind: "leaf"; pick: number }
  | { kind: "orphan" }
  | { kind: "adopt" };

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
    shown: [...data.shown]
      .filter(([, list]) => list.length > 0)
      .map(([k, list]) => [String(k), list.map((e) => e.id)] as const)
      .sort((a, b) => a[0].localeCompare(b[0])),
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

  it("property: moves are transparent (the tree equals the same session with moves contracted)", () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 60 }), (ops) => {
        const entries = play(ops);
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
