/**
 * Move entries: their shape, the position shown for a move, a chain of moves, an old `leaf` entry
 * or a cycle, and which leaf a branch summary says was left.
 */
import { describe, expect, it } from "vitest";
import {
  branchSummaryLeftId,
  displayPosition,
  displayPositionId,
  isMoveEntry,
  isPositionMarker,
  MOVE_CUSTOM_TYPE,
} from "./moves.ts";
import { assistant, entry, msg, TS, user } from "./test-builders.ts";
import { buildTreeIndex, currentPath, resolveLeafId } from "./tree.ts";
import { move } from "./tree-test-support.ts";
import type { SessionEntry } from "./types.ts";

const base: SessionEntry[] = [
  msg("u1", null, user("start")),
  msg("a1", "u1", assistant("one")),
  msg("u2", "a1", user("more")),
  msg("a2", "u2", assistant("two")),
];

describe("buildMoveEntry", () => {
  it("is a custom entry under the target, with target and leaf left in its data", () => {
    expect(move("m1", "a1", "a2")).toEqual({
      type: "custom",
      customType: MOVE_CUSTOM_TYPE,
      data: { targetId: "a1", fromId: "a2" },
      id: "m1",
      parentId: "a1",
      timestamp: TS,
    });
    // Before the first entry: a root, as pi's resetLeaf() followed by an append makes.
    expect(move("m2", null, "a2")).toMatchObject({ parentId: null, data: { targetId: null, fromId: "a2" } });
  });

  it("a file ending with a move opens at the move, whose path is the target's", () => {
    const entries = [...base, move("m1", "a1", "a2")];
    expect(resolveLeafId(entries)).toBe("m1");
    expect(currentPath(entries).map((e) => e.id)).toEqual(["u1", "a1", "m1"]);
    const index = buildTreeIndex(entries);
    expect(displayPositionId(resolveLeafId(entries), index.byId)).toBe("a1");
  });
});

describe("isMoveEntry / isPositionMarker", () => {
  it("recognises moves by their custom type only; old leaf entries are markers too", () => {
    expect(isMoveEntry(move("m", "a1"))).toBe(true);
    // Without (or with garbled) data it still is one: its parent is the position.
    expect(isMoveEntry(entry("custom", "m", "a1", { customType: MOVE_CUSTOM_TYPE }))).toBe(true);
    expect(isMoveEntry(entry("custom", "c", "a1", { customType: "other.ext", data: {} }))).toBe(false);
    expect(isMoveEntry(entry("custom_message", "c", "a1", { customType: MOVE_CUSTOM_TYPE }))).toBe(false);
    expect(isPositionMarker(entry("leaf", "L", "a2", { targetId: "a1" }))).toBe(true);
    expect(isPositionMarker(base[0]!)).toBe(false);
  });
});

describe("displayPosition", () => {
  const entries = [
    ...base,
    move("m1", "a1", "a2"),
    move("m2", "m1", "m1"), // a move of a move (e.g. Undo of a compaction written after a move)
    move("m0", null, "m2"),
    entry("custom", "orphan", "gone", { customType: MOVE_CUSTOM_TYPE, data: {} }),
    entry("leaf", "L", "a2", { targetId: "u1" }),
  ];
  const { byId } = buildTreeIndex(entries);
  const at = (id: string) => displayPosition(byId.get(id), byId)?.id ?? null;

  it("is the entry itself for anything but a marker", () => {
    expect(at("a2")).toBe("a2");
    expect(at("u1")).toBe("u1");
  });
  it("is the target for a move, walking up over consecutive moves", () => {
    expect(at("m1")).toBe("a1");
    expect(at("m2")).toBe("a1");
  });
  it("is null for a move before the first entry and a marker whose parent is missing", () => {
    expect(at("m0")).toBeNull();
    expect(at("orphan")).toBeNull();
    expect(displayPosition(null, byId)).toBeNull();
    expect(displayPositionId(undefined, byId)).toBeNull();
    expect(displayPositionId("nope", byId)).toBeNull();
  });
  it("stands an old leaf entry for the entry it was written from (its parent)", () => {
    expect(at("L")).toBe("a2");
  });
  it("stops at a cycle of markers", () => {
    const cyclic = [move("x", "y"), { ...move("y", "x"), parentId: "x" }];
    const idx = buildTreeIndex(cyclic).byId;
    expect(displayPosition(idx.get("x"), idx)).toBeNull();
  });
});

describe("branchSummaryLeftId", () => {
  const summary = (parentId: string | null, fromId: unknown) =>
    entry("branch_summary", "bs", parentId, { fromId, summary: "S" });
  it("reads pi 1.6's form: the leaf left, 'root' when there was none", () => {
    expect(branchSummaryLeftId(summary("a1", "a2"))).toBe("a2");
    expect(branchSummaryLeftId(summary("a1", "root"))).toBeNull();
    expect(branchSummaryLeftId(summary(null, "a2"))).toBe("a2");
  });
  it("reads older Cutpoint's form (fromId = the new leaf) as not recorded", () => {
    expect(branchSummaryLeftId(summary("a1", "a1"))).toBeUndefined();
    expect(branchSummaryLeftId(summary(null, "root"))).toBeUndefined();
    expect(branchSummaryLeftId(summary("a1", 7))).toBeUndefined();
    expect(branchSummaryLeftId(base[0]!)).toBeUndefined();
  });
});
