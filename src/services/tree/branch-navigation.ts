/**
 * Planning a move of the leaf (pure; docs/session-format.md §12): where the leaf lands (the new
 * leaf rule), the common ancestor, the entries left behind and the budgeted selection the branch
 * summary would cover; plus the offline draft used when no API key is set.
 */
import {
  type BranchPreparation,
  branchEntries,
  branchNewLeaf,
  prepareBranchSummary,
} from "../../core/compaction/branch.ts";
import { entryMessage, isContextEntry } from "../../core/compaction/entry-messages.ts";
import { formatFileBlocks } from "../../core/compaction/file-ops.ts";
import { BRANCH_SUMMARY_PREAMBLE, EMPTY_BRANCH_SUMMARY } from "../../core/compaction/prompts.ts";
import { displayPosition, displayPositionId, isPositionMarker } from "../../core/session/moves.ts";
import { oneLine } from "../../core/session/one-line.ts";
import type { TreeIndex } from "../../core/session/tree.ts";
import type { AgentMessage, SessionEntry } from "../../core/session/types.ts";

export interface NavigationPlan {
  /** The entry picked (null = before the first entry). */
  target: SessionEntry | null;
  /** Where the leaf goes: the target, or its parent for a user message / custom_message. */
  newLeafId: string | null;
  /** Text of a user / custom message target, for the composer. */
  editorText: string | undefined;
  commonAncestor: SessionEntry | null;
  /** Entries of the branch being left (old leaf back to the common ancestor, exclusive), oldest first. */
  left: SessionEntry[];
  /**
   * Whether the branch left holds something the model saw (a message, custom message, summary or
   * compaction); labels, model / thinking changes and moves alone are not worth a summary.
   */
  leavesContent: boolean;
  prep: BranchPreparation;
  /** Nothing moves (the new leaf is the current position: the leaf, or the target of a move at it). */
  noMove: boolean;
}

export interface PlanOptions {
  contextWindow?: number;
  reserveTokens: number;
}

/**
 * Where the leaf lands: "rule" applies pi's new-leaf rule (a user or custom message target puts
 * the leaf at its parent and its text into the composer: the tree panel, "Edit and resend");
 * "exact" puts the leaf on the target itself ("Continue from here", the branch switcher).
 */
export type Landing = "rule" | "exact";

export function planNavigation(
  index: TreeIndex,
  oldLeafId: string | null,
  targetId: string | null,
  options: PlanOptions,
  landing: Landing = "rule",
): NavigationPlan | undefined {
  const target = targetId === null ? null : index.byId.get(targetId);
  if (target === undefined) return undefined;
  const { leafId: newLeafId, editorText } =
    landing === "exact" ? { leafId: targetId, editorText: undefined } : branchNewLeaf(target);
  const move = branchEntries(index.byId, oldLeafId, newLeafId);
  // Moves (and old `leaf` entries) are bookkeeping, not part of what was said.
  const left = move.entries.filter((e) => !isPositionMarker(e));
  const prep = prepareBranchSummary(left, {
    reserveTokens: options.reserveTokens,
    ...(options.contextWindow !== undefined ? { contextWindow: options.contextWindow } : {}),
  });
  return {
    target,
    newLeafId,
    editorText,
    // A move on both paths stands for the entry it moved to.
    commonAncestor:
      move.commonAncestorId === null
        ? null
        : displayPosition(index.byId.get(move.commonAncestorId), index.byId),
    left,
    leavesContent: left.some(isContextEntry),
    prep,
    noMove: newLeafId === displayPositionId(oldLeafId, index.byId) || newLeafId === oldLeafId,
  };
}

/**
 * What a request to move the leaf does (one rule for the tree panel, the branch switcher, "Edit
 * and resend" and "Continue from here"):
 * - "missing": the target is not in the session (any more);
 * - "stay": the leaf is already there (nothing is written);
 * - "ask": open the preview with the branch-summary offer: always when `preview` is "always"
 *   (the tree panel, where picking a row is a light gesture), else when the move leaves
 *   something the model saw behind; never when `preview` is "never" (the person turned the
 *   offer off in Settings → Compaction);
 * - "move": just move (a move entry), nothing worth summarizing is left behind (or no offer).
 */
export type LeafMoveDecision = "missing" | "stay" | "ask" | "move";

export function decideLeafMove(
  plan: NavigationPlan | undefined,
  preview: "always" | "when-leaving" | "never",
): LeafMoveDecision {
  if (!plan) return "missing";
  if (preview === "always") return "ask";
  if (preview === "never") return plan.noMove ? "stay" : "move";
  if (plan.noMove) return "stay";
  return plan.leavesContent ? "ask" : "move";
}

function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b) =>
      b && typeof b === "object" && (b as { type?: unknown }).type === "text"
        ? String((b as { text?: unknown }).text ?? "")
        : "",
    )
    .join("");
}

function messageLine(m: AgentMessage): string | undefined {
  switch (m.role) {
    case "user":
      return `- Asked: ${oneLine(text(m.content), 200)}`;
    case "assistant": {
      const said = oneLine(text(m.content), 200);
      const tools = m.content.filter((b) => b.type === "toolCall").map((b) => (b as { name: string }).name);
      if (said === "" && tools.length === 0) return undefined;
      return `- Assistant: ${said}${tools.length > 0 ? ` [tools: ${tools.join(", ")}]` : ""}`;
    }
    case "bashExecution":
      return `- Ran: ${oneLine(m.command, 120)}`;
    case "custom":
      return `- Note: ${oneLine(text(m.content), 160)}`;
    case "branchSummary":
    case "compactionSummary":
      return `- Earlier summary: ${oneLine(m.summary, 200)}`;
    default:
      return undefined;
  }
}

/**
 * A summary written without a model: the preamble, what was asked and answered on the branch
 * (one line each, the last 40 at most), and the file lists. Editable like a generated one.
 */
export function offlineBranchDraft(plan: NavigationPlan): string {
  const { prep } = plan;
  if (prep.messages.length === 0)
    return `${BRANCH_SUMMARY_PREAMBLE}\n\n${EMPTY_BRANCH_SUMMARY}${formatFileBlocks(prep.fileOps)}`;
  const lines: string[] = [];
  for (const m of prep.messages) {
    const line = messageLine(m);
    if (line) lines.push(line);
  }
  const shown = lines.slice(-40);
  const skipped = lines.length - shown.length;
  const body = [
    "## What happened on that branch (offline draft: no model was asked)",
    ...(skipped > 0 ? [`- (${skipped} earlier items not listed)`] : []),
    ...shown,
  ].join("\n");
  return `${BRANCH_SUMMARY_PREAMBLE}\n\n${body}${formatFileBlocks(prep.fileOps)}`;
}

/** Excerpt of an entry for the preview (kind and first words). */
export function entryExcerpt(entry: SessionEntry | null, max = 80): string {
  if (entry === null) return "(the start of the session)";
  const m = entryMessage(entry);
  if (m) {
    const line = messageLine(m);
    if (line) return oneLine(line.slice(2), max);
  }
  if (entry.type === "label") {
    const label = (entry as { label?: unknown }).label;
    return typeof label === "string" && label !== "" ? oneLine(`Label “${label}”`, max) : "Label removed";
  }
  return `${entry.type} ${entry.id}`;
}
