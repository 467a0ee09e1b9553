/**
 * Why the context size is reported or estimated, and how the two figures differ: said once here,
 * shown under "Now" in the /context view and as the meter's source tooltip; the header and the
 * review point to it.
 */
import type { ContextBreakdown } from "../../core/compaction/breakdown.ts";
import type { ContextSize } from "../../core/compaction/plan.ts";
import { estimatorLabel, fullTokens } from "./format-tokens.ts";

export function sizeWords(size: ContextSize, b: ContextBreakdown, estimatorId: string): string {
  const est = `Cutpoint's estimate of the same messages (${estimatorLabel(estimatorId)}) is ${fullTokens(b.estimate)}`;
  if (size.source === "reported") {
    const d = b.usageDifference;
    const gap =
      d >= 0
        ? `the provider counts ${fullTokens(d)} more (a system prompt and tools the session does not hold, the estimate's error)`
        : `the provider counts ${fullTokens(-d)} fewer (cached or trimmed input, the estimate's error)`;
    return `Reported: the provider's count for the last reply, plus estimates of what followed. ${est}: ${gap}. After a compaction or a masking the size is the estimate until the next reply.`;
  }
  if (size.setAside !== undefined)
    return `Estimated: the provider's last count (${fullTokens(size.setAside)}) came before a compaction or a context edit, so it no longer applies (pi's rule). The next reply reports again.`;
  return "Estimated: no reply in the context reported the provider's count.";
}
