/**
 * What a plan's summary is counted at before it is written: each part the summarizer writes at a
 * typical size (never above its output budget), at most its budget, plus the file lists every
 * summary carries, counted exactly. Pure.
 */
import { formatFileBlocks } from "./file-ops.ts";
import type { CompactionPlan } from "./plan.ts";
import { historySummaryBudget, NO_PRIOR_HISTORY, turnPrefixBudget } from "./prompts.ts";
import { type Estimator, PI_ESTIMATOR } from "./tokens.ts";

/**
 * The typical size of one part of a summary, in tokens. pi's own summaries are about this size: the
 * two in the shared pi session (each of ~180k tokens of context) are 913 and 1,073 tokens (chars/4),
 * far below their 13,107-token budget, since pi's prompt asks for a structured checkpoint (goal,
 * constraints, progress, decisions, next steps), not a retelling.
 */
export const TYPICAL_SUMMARY_TOKENS = 1000;

export interface SummarySize {
  /** The summary counted at the typical size of each part written (the best estimate). */
  typical: number;
  /** The summary with each part at its whole output budget (it cannot be larger). */
  bound: number;
  /** The `<read-files>` / `<modified-files>` blocks appended to every summary (in both figures). */
  fileLists: number;
  /** Parts the summarizer writes: 2 when the cut splits a turn after some history, else 1. */
  parts: number;
}

/** The size of the summary of `plan` before it exists (see SummarySize). */
export function summarySize(plan: CompactionPlan, estimator: Estimator = PI_ESTIMATOR): SummarySize {
  const reserve = plan.settings.reserveTokens;
  const split = plan.isSplitTurn && plan.turnPrefixCount > 0;
  // A split turn with no history before it: the previous summary (or a short line) stands as the history.
  const history = plan.summarizeCount > 0 || !split;
  const budgets = [
    ...(history ? [historySummaryBudget(reserve)] : []),
    ...(split ? [turnPrefixBudget(reserve)] : []),
  ];
  const count = (text: string) =>
    text === ""
      ? 0
      : estimator.estimateMessage({
          role: "compactionSummary",
          summary: text,
          tokensBefore: plan.tokensBefore,
          timestamp: 0,
        });
  const fileLists = count(formatFileBlocks(plan.fileOps));
  // Without a history part, its text is known: the previous summary, or pi's line for none.
  let typical = fileLists + (history ? 0 : count(plan.previousSummary || NO_PRIOR_HISTORY));
  for (const b of budgets) typical += Math.min(TYPICAL_SUMMARY_TOKENS, b);
  const bound = Math.max(typical, plan.summaryBudgetTokens + fileLists);
  return { typical, bound, fileLists, parts: budgets.length };
}
