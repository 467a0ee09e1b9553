/**
 * The coverage check's items of a plan's summarized range, read over several tasks (a few
 * milliseconds each, with the event loop let through between them), so that reading the ~90k
 * messages of a big session never freezes the page. Used by the review and by automatic
 * compactions; the items equal `planCoverageItems(plan)`.
 */
import {
  type CoverageCandidate,
  coverageRanges,
  startCoverageExtraction,
} from "../core/compaction/coverage.ts";
import type { CompactionPlan } from "../core/compaction/plan.ts";
import { yieldToEventLoop } from "./session-loader.ts";

/** Work per task. */
const SLICE_MS = 8;
/** Messages read between two looks at the clock. */
const MESSAGES_PER_CHECK = 256;

type CoveragePlan = Pick<CompactionPlan, "messagesToSummarize" | "turnPrefixMessages">;

/**
 * The plan's items, or undefined when `signal` aborts first (what was read is kept for the
 * next extraction over the same messages: a moved cut re-reads little).
 */
export async function coverageItemsInSlices(
  plan: CoveragePlan,
  signal?: AbortSignal,
): Promise<CoverageCandidate[] | undefined> {
  const extraction = startCoverageExtraction(coverageRanges(plan));
  let until = performance.now() + SLICE_MS;
  while (!extraction.step(MESSAGES_PER_CHECK)) {
    if (performance.now() < until) continue;
    await yieldToEventLoop();
    if (signal?.aborted) {
      extraction.close();
      return undefined;
    }
    until = performance.now() + SLICE_MS;
  }
  return extraction.items();
}
