/** What the summary call will cost and whether its requests fit the summarizer's window (from the plan's numbers; the rule is core's). */
import { summarizerFit } from "../../core/compaction/summarizer-fit.ts";
import { modelLimits } from "../../services/agent/agent-settings.ts";
import { modelInfo, providerPreset } from "../../services/agent/provider-facts.ts";
import type { CompactionModel } from "./use-compaction-model.ts";

export function summarizerCall(
  model: CompactionModel,
  plan: NonNullable<CompactionModel["plan"]["plan"]>,
  focus: string,
  /** The summarizer typed in the review (else the configured one). */
  modelIdOverride?: string,
) {
  const modelId = (modelIdOverride ?? model.summarizerModel).trim();
  const limits = modelLimits(model.provider, modelId);
  const info = modelInfo(modelId);
  // The split turn's prefix from the account's running sums (the history is the rest of the summarized part).
  const cum = model.account.nonSysCum;
  const split = plan.isSplitTurn && plan.turnPrefixCount > 0;
  const end = Math.min(plan.firstKeptIndex, cum.length - 1);
  const prefixTokens = split ? Math.max(0, cum[end]! - cum[Math.min(plan.turnStartIndex, end)]!) : 0;
  const fit = summarizerFit(plan, {
    historyTokens: Math.max(0, plan.summarizedTokens - prefixTokens),
    prefixTokens,
    previousSummaryTokens: Math.ceil((plan.previousSummary?.length ?? 0) / 4),
    focusTokens: Math.ceil(focus.length / 4),
    window: limits.contextWindow,
    ...(limits.maxOutput > 0 ? { maxOutput: limits.maxOutput } : {}),
  });
  const input = fit.requests.reduce((n, r) => n + r.input, 0);
  const output = fit.requests.reduce((n, r) => n + r.output, 0);
  const prices = info.prices;
  return {
    modelId,
    provider: providerPreset(model.provider.providerId).label,
    contextWindow: limits.contextWindow,
    input,
    output,
    fit,
    // Only for a known model: without one there is nothing to send to (the offline summary is the way).
    tooBig: modelId !== "" && !fit.fits,
    usd: prices ? (input * prices.input + output * prices.output) / 1e6 : undefined,
  };
}

export type SummarizerCall = ReturnType<typeof summarizerCall>;
