import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PI_FIXTURE } from "../../core/session/fixture-path.ts";
import { parseSessionJsonl } from "../../core/session/parse.ts";
import { assistant, entry, msg, user } from "../../core/session/test-builders.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import {
  buildTreeRows,
  latestTip,
  rowIsLeaf,
  rowOnPath,
  siblingsOf,
  type TreeData,
  type TreeRow,
  treeData,
} from "./tree-model.ts";

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

  it("property: after leaf moves and appends, the rows equal a from-scratch build where the leaf has its own row", () => {
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
          const ids = entries.filter((e) => e.type !== "leaf").map((e) => e.id);
          const target = ids[m % ids.length]!;
          const data0 = treeData(entries);
          entries = append
            ? [...entries, msg(`n${k}`, data0.leafId, assistant("new"))]
            : [...entries, entry("leaf", `L${k}`, entries.at(-1)!.id, { targetId: target })];
          const data = treeData(entries);
          const rows = buildTreeRows(data, NONE, 3);
          expect(describeRows(rows)).toEqual(referenceRows(data, 3));
          expect(rows.filter((r) => rowIsLeaf(data, r)).map((r) => r.key)).toEqual([data.leafId]);
          if (!append) expect(Math.abs(rows.length - before.length)).toBeLessThanOrEqual(4);
          before = rows;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });
});

/** A plain recursive build of the rows (the leaf is one of the entries with a row of their own). */
function referenceRows(data: TreeData, minRun: number): string[] {
  const out: string[] = [];
  const kids = (id: string) => (data.index.children.get(id) ?? []).filter((e) => e.type !== "leaf");
  let run: { id: string; depth: number }[] = [];
  const flush = () => {
    if (run.length >= minRun) out.push(`${"  ".repeat(run[0]!.depth)}…${run.length}`);
    else for (const r of run) out.push(`${"  ".repeat(r.depth)}${r.id}`);
    run = [];
  };
  const visit = (e: SessionEntry, depth: number, siblings: number) => {
    const children = kids(e.id);
    const own =
      e.parentId === null ||
      children.length !== 1 ||
      siblings > 1 ||
      e.id === data.leafId ||
      data.labels.has(e.id) ||
      e.type === "compaction" ||
      e.type === "branch_summary";
    if (own) {
      flush();
      out.push(`${"  ".repeat(depth)}${e.id}`);
    } else run.push({ id: e.id, depth });
    if (children.length === 1) visit(children[0]!, depth, 1);
    else {
      flush();
      for (const c of children) visit(c, depth + 1, children.length);
    }
  };
  for (const root of (data.index.children.get(null) ?? []).filter((e) => e.type !== "leaf"))
    visit(root, 0, 1);
  flush();
  return out;
}
