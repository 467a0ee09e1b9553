/** What the context size reads after an edit of the context (a masking, a compaction): before the next reply and at it (pure). */
import type { ContextBreakdown } from "./breakdown.ts";

export interface SizeAfterEdit {
  /**
   * What the meter shows once the edit is written: the estimate. A compaction or a context edit
   * sets the provider's last count aside (pi 1.6's rule) until the next reply reports again.
   */
  estimated: number;
  /** What the next reply may report: the estimate plus what the provider now counts beyond it (undefined when it counts nothing beyond). */
  nextReply: number | undefined;
  /** The provider's count beyond the estimate now (0 when the size is estimated, or the provider counts less). */
  beyondEstimate: number;
}

/** The size after an edit that leaves `estimateAfter` (measured like the account's estimate), given the size now. */
export function sizeAfterEdit(now: ContextBreakdown, estimateAfter: number): SizeAfterEdit {
  const estimated = Math.max(0, estimateAfter);
  const beyondEstimate = now.source === "reported" ? Math.max(0, now.usageDifference) : 0;
  return {
    estimated,
    nextReply: beyondEstimate > 0 ? estimated + beyondEstimate : undefined,
    beyondEstimate,
  };
}
