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
/** An idle read still gets a slice this often when the page is never idle. */
const IDLE_TIMEOUT_MS = 500;

type CoveragePlan = Pick<CompactionPlan, "messagesToSummarize" | "turnPrefixMessages">;

type IdleCallback = (deadline: { timeRemaining(): number; didTimeout: boolean }) => void;
type IdleScheduler = (callback: IdleCallback, options?: { timeout: number }) => number;

/** A slice's end: the idle time the browser offers (at most SLICE_MS), or SLICE_MS from now. */
function nextSlice(idle: boolean): Promise<number> {
  const request = (globalThis as { requestIdleCallback?: IdleScheduler }).requestIdleCallback;
  if (!idle || !request) return yieldToEventLoop().then(() => performance.now() + SLICE_MS);
  return new Promise((resolve) =>
    request(
      (deadline) => {
        const now = performance.now();
        const left = deadline.didTimeout ? SLICE_MS : Math.min(SLICE_MS, deadline.timeRemaining());
        resolve(now + Math.max(1, left));
      },
      { timeout: IDLE_TIMEOUT_MS },
    ),
  );
}

export interface SliceOptions {
  /** Given up when it aborts (undefined is returned). */
  signal?: AbortSignal;
  /** Only in the page's idle time (the review: a moved cut paints first), else in plain tasks. */
  idle?: boolean;
}

/**
 * The plan's items, or undefined when `signal` aborts first (what was read is kept for the
 * next extraction over the same messages: a moved cut re-reads little).
 */
export async function coverageItemsInSlices(
  plan: CoveragePlan,
  { signal, idle = false }: SliceOptions = {},
): Promise<CoverageCandidate[] | undefined> {
  // Everything in the slices, the start too: a lazy plan materializes its ranges when they are
  // first read (~10 ms on the 100 MB session), which a moved cut must not wait for.
  let until = await nextSlice(idle);
  if (signal?.aborted) return undefined;
  const extraction = startCoverageExtraction(coverageRanges(plan));
  for (;;) {
    if (signal?.aborted) {
      extraction.close();
      return undefined;
    }
    if (extraction.step(MESSAGES_PER_CHECK)) return extraction.items();
    if (performance.now() >= until) until = await nextSlice(idle);
  }
}
