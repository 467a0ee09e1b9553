/** What the summary call will cost and whether it fits the summarizer's window (pure; from the plan's numbers). */
import { modelInfo, providerPreset } from "../../llm/providers.ts";
import { modelLimits } from "../../services/agent-settings.ts";
import type { CompactionModel } from "./use-compaction-model.ts";

export function summarizerCall(
  model: CompactionModel,
  plan: NonNullable<CompactionModel["plan"]["plan"]>,
  focus: string,
) {
  const modelId = model.summarizerModel;
  const limits = modelLimits(model.provider, modelId);
  const info = modelInfo(modelId);
  const prompts = 600 + Math.ceil(focus.length / 4);
  const input =
    plan.summarizedTokens +
    Math.ceil((plan.previousSummary?.length ?? 0) / 4) +
    prompts * (plan.isSplitTurn ? 2 : 1);
  const output = Math.min(plan.summaryBudgetTokens, limits.maxOutput * (plan.isSplitTurn ? 2 : 1));
  const prices = info.prices;
  return {
    modelId,
    provider: providerPreset(model.provider.providerId).label,
    contextWindow: limits.contextWindow,
    input,
    output,
    // Only for a known model: without one there is nothing to send to (the offline summary is the way).
    tooBig: modelId !== "" && input + Math.min(output, limits.maxOutput) > limits.contextWindow,
    usd: prices ? (input * prices.input + output * prices.output) / 1e6 : undefined,
  };
}
