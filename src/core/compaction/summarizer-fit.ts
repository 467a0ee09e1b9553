/**
 * Whether the summary requests fit the summarizer's window: each request's input plus the output it
 * asks for (max_tokens, as generateCompaction sends it) against the window, as a provider checks
 * it. A split turn sends two requests (the history, the turn's prefix); each must fit. Pure.
 */
import type { CompactionPlan } from "./plan.ts";
import { summaryRequestBudget } from "./prompts.ts";

/** Tokens of the summarizer's prompts around the conversation (system prompt, instructions, tags). */
export const SUMMARY_PROMPT_TOKENS = 600;

export interface SummaryRequestFit {
  part: "history" | "turnPrefix";
  input: number;
  output: number;
  /** input + output. */
  needed: number;
  fits: boolean;
}

export interface SummarizerFit {
  requests: SummaryRequestFit[];
  window: number;
  /** Every request fits. */
  fits: boolean;
  /** The request that needs the most (the one to show). */
  largest: SummaryRequestFit;
  /** Tokens by which the largest request is over the window (0 when it fits). */
  over: number;
}

export interface SummarizerFitInput {
  /** Estimated tokens of the messages summarized before the split turn (or before the cut). */
  historyTokens: number;
  /** Estimated tokens of the split turn's prefix (0 when the cut splits no turn). */
  prefixTokens: number;
  /** Estimated tokens of the previous summary the history request updates (0 without one). */
  previousSummaryTokens: number;
  /** Estimated tokens of the person's focus text. */
  focusTokens: number;
  /** The summarizer's context window. */
  window: number;
  /** The summarizer's max output, when known (pi sends it as max_tokens). */
  maxOutput?: number;
}

function request(
  part: SummaryRequestFit["part"],
  input: number,
  output: number,
  window: number,
): SummaryRequestFit {
  const needed = input + output;
  return { part, input, output, needed, fits: needed <= window };
}

/** What the fit reads of a plan. */
export type SummarizerFitPlan = Pick<CompactionPlan, "isSplitTurn" | "turnPrefixCount" | "summarizeCount"> & {
  settings: Pick<CompactionPlan["settings"], "reserveTokens">;
};

/** The requests a plan sends, sized, and whether each fits the window. */
export function summarizerFit(plan: SummarizerFitPlan, x: SummarizerFitInput): SummarizerFit {
  const reserve = plan.settings.reserveTokens;
  const split = plan.isSplitTurn && plan.turnPrefixCount > 0;
  const prompts = SUMMARY_PROMPT_TOKENS + x.focusTokens;
  const requests: SummaryRequestFit[] = [];
  if (plan.summarizeCount > 0 || !split) {
    requests.push(
      request(
        "history",
        x.historyTokens + x.previousSummaryTokens + prompts,
        summaryRequestBudget("history", reserve, x.maxOutput),
        x.window,
      ),
    );
  }
  if (split) {
    requests.push(
      request(
        "turnPrefix",
        x.prefixTokens + prompts,
        summaryRequestBudget("turnPrefix", reserve, x.maxOutput),
        x.window,
      ),
    );
  }
  const largest = requests.reduce(
    (a, b) => (b.needed - x.window > a.needed - x.window ? b : a),
    requests[0]!,
  );
  return {
    requests,
    window: x.window,
    fits: requests.every((r) => r.fits),
    largest,
    over: Math.max(0, largest.needed - x.window),
  };
}
