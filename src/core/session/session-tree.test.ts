/**
 * The tree view's data and rows: branches indented, runs collapsed, the path and leaf marked, the fixture
 * as one linear path, and moves (continue, edit and resend, before the root, labels).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PI_FIXTURE } from "./fixture-path.ts";
import { parseSessionJsonl } from "./parse.ts";
import { buildTreeData, extendTreeData, latestTip, shownChildren, siblingsOf } from "./session-tree.ts";
import { buildTreeRows, rowIsLeaf, rowOnPath } from "./session-tree-rows.ts";
import { assistant, entry, msg, user } from "./test-builders.ts";
import { appendingTreeData, describeRows, move } from "./tree-test-support.ts";
import type { SessionEntry } from "./types.ts";

const treeData = appendingTreeData();

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
    // The run a1, a2 is split at the labelled a2 (a1 alone is too short to collapse).
    expect(describeRows(rows).slice(0, 4)).toEqual(["u1", "a1", "a2", "a3"]);

    // One linear chain of tool steps: with nothing to keep, it collapses into one run ...
    const steps = (ids: string[], parent: string) =>
      ids.map((id, i) => msg(id, i === 0 ? parent : ids[i - 1]!, step(id)));
    const plain = [msg("r", null, user("go")), ...steps(["s1", "s2", "s3", "s4", "s5", "s6", "s7"], "r")];
    expect(
      describeRows(buildTreeRows(buildTreeData([...plain, msg("t", "s7", user("end"))]), new Set(), 2)),
    ).toEqual(["r", "…7", "t"]);
    // ... but a compaction and a branch summary in it each keep a row, splitting the run around them.
    const summarized = [
      msg("r", null, user("go")),
      ...steps(["s1", "s2"], "r"),
      entry("compaction", "c", "s2", { summary: "S", firstKeptEntryId: "s2", tokensBefore: 10 }),
      ...steps(["s3", "s4"], "c"),
      entry("branch_summary", "b", "s4", { fromId: "x", summary: "B" }),
      ...steps(["s5", "s6", "s7"], "b"),
      msg("t", "s7", user("end")),
    ];
    const summaryRows = buildTreeRows(buildTreeData(summarized), new Set(), 2);
    expect(describeRows(summaryRows)).toEqual(["r", "…2", "c", "…2", "b", "…3", "t"]);
    expect(
      summaryRows.filter((r) => r.kind === "entry").map((r) => r.kind === "entry" && r.entry.type),
    ).toEqual(["message", "compaction", "branch_summary", "message"]);
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
});

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
    expect(ids(shownChildren(data, "a4"))).toEqual(["lb"]);
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
    expect(ids(shownChildren(first, null))).toEqual(["u1", "o2"]);
    const next = [...first.entries, msg("late", "a6", assistant("parent"))];
    expect(extendTreeData(first, next)).toBeUndefined();
    expect(ids(shownChildren(buildTreeData(next), "late"))).toEqual(["o2"]);
  });
});
