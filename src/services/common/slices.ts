/**
 * Work over a whole summarized range done over several tasks (a few milliseconds each, with the
 * event loop let through between them, or in idle time), so that reading the ~90k messages of a
 * big session never freezes the page: the coverage check's items (the review, automatic
 * compactions; equal to `planCoverageItems(plan)`) and the offline summary (equal to
 * `generateOfflineCompaction(plan)`).
 */

import { startOfflineCompaction } from "../../core/compaction/offline-summary.ts";
import type { CompactionPlan } from "../../core/compaction/plan.ts";
import type { GenerateResult } from "../../core/compaction/summarize.ts";
import {
  type CoverageCandidate,
  coverageRanges,
  startCoverageExtraction,
} from "../../core/coverage/coverage.ts";
import { yieldToEventLoop } from "./yield.ts";

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
 * Runs `step` (which reads up to `count` more and says when it is done) over several tasks, each
 * of about SLICE_MS. True when it finished, false when `signal` aborted first.
 */
export async function runInSlices(
  step: (count: number) => boolean,
  { signal, idle = false }: SliceOptions = {},
): Promise<boolean> {
  let until = await nextSlice(idle);
  for (;;) {
    if (signal?.aborted) return false;
    if (step(MESSAGES_PER_CHECK)) return true;
    if (performance.now() >= until) until = await nextSlice(idle);
  }
}

/** Work in steps: `step` reads up to `count` more and says when it is done. */
interface SteppedJob {
  step(count: number): boolean;
  /** Keeps what was done so far (when the job is given up). */
  close?(): void;
}

/**
 * The job `start` makes, run in slices (started inside the first one: a lazy plan materializes
 * its ranges when they are first read, ~10 ms on the 100 MB session, which a moved cut must not
 * wait for); undefined when `signal` aborts first.
 */
async function jobInSlices<J extends SteppedJob>(
  start: () => J,
  options: SliceOptions,
): Promise<J | undefined> {
  let job: J | undefined;
  const done = await runInSlices((count) => {
    job ??= start();
    return job.step(count);
  }, options);
  if (done) return job;
  job?.close?.();
  return undefined;
}

/**
 * The plan's items, or undefined when `signal` aborts first (what was read is kept for the
 * next extraction over the same messages: a moved cut re-reads little).
 */
export async function coverageItemsInSlices(
  plan: CoveragePlan,
  options: SliceOptions = {},
): Promise<CoverageCandidate[] | undefined> {
  const job = await jobInSlices(() => startCoverageExtraction(coverageRanges(plan)), options);
  return job?.items();
}

/** The offline compaction of a plan (generateOfflineCompaction) over several tasks; undefined when aborted. */
export async function offlineCompactionInSlices(
  plan: CompactionPlan,
  options: SliceOptions = {},
): Promise<GenerateResult | undefined> {
  const job = await jobInSlices(() => startOfflineCompaction(plan), options);
  return job?.result();
}
