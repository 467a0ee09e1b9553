/**
 * Planning a leaf move in the tree (where it lands, what is left behind and the files it changed,
 * moves as bookkeeping) and deciding whether to offer a branch summary.
 */
import { describe, expect, it } from "vitest";
import { buildMoveEntry } from "../../core/session/moves.ts";
import { assistant, msg, TS, user } from "../../core/session/test-builders.ts";
import { buildTreeIndex } from "../../core/session/tree.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { linear } from "../../test-support/branch-sessions.ts";
import { decideLeafMove, planNavigation } from "./branch-navigation.ts";

// u1 -> a1 -> u2 -> a2            (branch 1)
//          \-> u3 -> a3 -> lab    (branch 2; lab labels u1, and is the leaf)
const tree: SessionEntry[] = [
  msg("u1", null, user("build the parser")),
  msg("a1", "u1", assistant("done")),
  msg("u2", "a1", user("now add tests")),
  msg("a2", "u2", assistant("tests added")),
  msg("u3", "a1", user("write docs instead")),
  msg("a3", "u3", assistant("docs written")),
  { type: "label", id: "lab", parentId: "a3", timestamp: TS, targetId: "u1", label: "start" } as SessionEntry,
];
const index = buildTreeIndex(tree);
const opts = { reserveTokens: 16384 };

describe("planning a leaf move: where it lands", () => {
  it("the new-leaf rule puts the leaf before a user message and hands its text back", () => {
    const plan = planNavigation(index, "lab", "u2", opts)!;
    expect(plan.newLeafId).toBe("a1");
    expect(plan.editorText).toBe("now add tests");
    expect(plan.left.map((e) => e.id)).toEqual(["u3", "a3", "lab"]);
  });

  it("an exact landing puts the leaf on the target itself, even a user message, with no text back", () => {
    const plan = planNavigation(index, "lab", "u2", opts, "exact")!;
    expect(plan.newLeafId).toBe("u2");
    expect(plan.editorText).toBeUndefined();
    expect(plan.commonAncestor?.id).toBe("a1");
    expect(plan.left.map((e) => e.id)).toEqual(["u3", "a3", "lab"]);
    expect(plan.leavesContent).toBe(true);
    // Switching to the other branch's tip.
    const tip = planNavigation(index, "lab", "a2", opts, "exact")!;
    expect(tip.newLeafId).toBe("a2");
    expect(tip.prep.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });
});

describe("planning a move back along the current path", () => {
  // u1 -> a1 -> u2 -> a2 (edits a file) -> u3 -> a3 (leaf)
  const linearIndex = buildTreeIndex(linear);

  it("to an earlier user message: the target and all after it are left, with the files they changed", () => {
    const plan = planNavigation(linearIndex, "a3", "u2", opts)!;
    expect(plan.newLeafId).toBe("a1");
    expect(plan.editorText).toBe("now add tests");
    expect(plan.commonAncestor?.id).toBe("a1");
    expect(plan.left.map((e) => e.id)).toEqual(["u2", "a2", "u3", "a3"]);
    expect(plan.prep.fileOps.modifiedFiles).toEqual(["src/parse.test.ts"]);
  });

  it("an unknown target has no plan; the leaf itself moves nothing", () => {
    expect(planNavigation(linearIndex, "a3", "nope", { reserveTokens: 0 })).toBeUndefined();
    expect(planNavigation(linearIndex, "a3", "a3", { reserveTokens: 0 })?.noMove).toBe(true);
  });
});

describe("planning from a move (the leaf is a cutpoint.move entry)", () => {
  // Continue from a2 (a move under a2 is the leaf), then "Edit and resend" u3 wrote a move to a1
  // and the new message u4 under it.
  const moved: SessionEntry[] = [
    ...tree,
    buildMoveEntry({ id: "m1", timestamp: TS, targetId: "a2", fromId: "lab" }),
  ];
  const movedIndex = buildTreeIndex(moved);

  it("the position is the move's target: going there again moves nothing", () => {
    const plan = planNavigation(movedIndex, "m1", "a2", opts, "exact")!;
    expect(plan.noMove).toBe(true);
    expect(decideLeafMove(plan, "when-leaving")).toBe("stay");
  });

  it("the move is bookkeeping: not left behind, not a common ancestor", () => {
    const plan = planNavigation(movedIndex, "m1", "u3", opts, "rule")!;
    expect(plan.newLeafId).toBe("a1");
    expect(plan.left.map((e) => e.id)).toEqual(["u2", "a2"]);
    const after = [...moved, msg("u4", "m1", user("and a benchmark"))];
    const next = planNavigation(buildTreeIndex(after), "u4", "a2", opts, "exact")!;
    // The paths share u1, a1, u2, a2 and the move: the common ancestor shown is a2, not the move.
    expect(next.commonAncestor?.id).toBe("a2");
    expect(next.left.map((e) => e.id)).toEqual(["u4"]);
  });
});

describe("deciding whether to offer the branch summary", () => {
  it("asks when the move leaves messages behind (switcher, edit and resend, continue from here)", () => {
    expect(decideLeafMove(planNavigation(index, "lab", "a2", opts, "exact"), "when-leaving")).toBe("ask");
    expect(decideLeafMove(planNavigation(index, "lab", "u3", opts, "rule"), "when-leaving")).toBe("ask");
    expect(decideLeafMove(planNavigation(index, "lab", "a1", opts, "exact"), "when-leaving")).toBe("ask");
  });

  it("just moves when only bookkeeping is left behind (a label), or nothing at all", () => {
    // Back from the label to the reply it follows: only the label entry is left.
    const fromLabel = planNavigation(index, "lab", "a3", opts, "exact")!;
    expect(fromLabel.left.map((e) => e.id)).toEqual(["lab"]);
    expect(fromLabel.leavesContent).toBe(false);
    expect(decideLeafMove(fromLabel, "when-leaving")).toBe("move");
    // Forward along the path (a2 is a descendant of a1): nothing is left.
    const forward = planNavigation(index, "a1", "a2", opts, "exact")!;
    expect(forward.left).toEqual([]);
    expect(decideLeafMove(forward, "when-leaving")).toBe("move");
  });

  it("stays when the leaf is already there, and reports a missing target", () => {
    expect(decideLeafMove(planNavigation(index, "a2", "a2", opts, "exact"), "when-leaving")).toBe("stay");
    expect(decideLeafMove(planNavigation(index, "a2", "gone", opts, "exact"), "when-leaving")).toBe(
      "missing",
    );
  });

  it("with the offer turned off, every move just moves", () => {
    expect(decideLeafMove(planNavigation(index, "lab", "a2", opts, "exact"), "never")).toBe("move");
    expect(decideLeafMove(planNavigation(index, "lab", "u3", opts, "rule"), "never")).toBe("move");
    expect(decideLeafMove(planNavigation(index, "a2", "a2", opts, "exact"), "never")).toBe("stay");
  });

  it("the tree panel always previews, even when nothing is left", () => {
    expect(decideLeafMove(planNavigation(index, "a1", "a2", opts, "exact"), "always")).toBe("ask");
    expect(decideLeafMove(planNavigation(index, "a2", "a2", opts), "always")).toBe("ask");
  });

  it("a model change alone is not worth a summary; a compaction or branch summary is", () => {
    const more: SessionEntry[] = [
      ...tree.slice(0, 4),
      {
        type: "model_change",
        id: "m1",
        parentId: "a2",
        timestamp: TS,
        provider: "p",
        modelId: "x",
      } as SessionEntry,
      {
        type: "branch_summary",
        id: "b1",
        parentId: "a2",
        timestamp: TS,
        fromId: "a2",
        summary: "s",
      } as SessionEntry,
    ];
    const idx = buildTreeIndex(more);
    const fromModel = planNavigation(idx, "m1", "a2", opts, "exact")!;
    expect(fromModel.left.map((e) => e.id)).toEqual(["m1"]);
    expect(decideLeafMove(fromModel, "when-leaving")).toBe("move");
    const fromSummary = planNavigation(idx, "b1", "a2", opts, "exact")!;
    expect(fromSummary.left.map((e) => e.id)).toEqual(["b1"]);
    expect(decideLeafMove(fromSummary, "when-leaving")).toBe("ask");
  });
});
