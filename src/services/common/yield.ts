/** Letting the page paint, handle input and run its other tasks between two slices of a long job (load, import, warm-up, coverage). */

import type { Steps } from "../../core/session/steps.ts";

/**
 * Work per task while an open session's models are built ahead of use (its context, context
 * account, planner, timeline): a frame's budget less what the page needs to paint and answer.
 */
export const WARM_SLICE_MS = 10;

type SchedulerLike = { postTask?: (run: () => void, options?: { priority?: string }) => Promise<void> };

/**
 * Ends the current task; the job goes on in a new one at normal priority (`scheduler.postTask`,
 * no 4 ms clamp), queued behind the tasks already waiting: IndexedDB results and file reads among
 * them. Not `scheduler.yield()`: its continuation runs before those tasks, so a read requested
 * during a load was delivered only when the load stopped to wait for it (a session's next chunks
 * were fetched only after the current ones were parsed). On a 100 MB reopen the waits went from
 * ~200 to ~50 ms; the load as a whole only 0.96x, as the page then handles the reads' results
 * inside its slices (e2e/bench/storage.bench.ts, alternating rounds).
 */
export const yieldToEventLoop = (): Promise<void> => {
  const scheduler = (globalThis as { scheduler?: SchedulerLike }).scheduler;
  if (scheduler?.postTask) return scheduler.postTask(() => undefined, { priority: "user-visible" });
  return new Promise<void>((resolve) => setTimeout(resolve, 0));
};

/**
 * Runs work written as steps (core/session/steps.ts) with a turn of the event loop whenever a
 * slice has taken `sliceMs`; resolves to the steps' result.
 */
export async function runStepsInSlices<T>(steps: Steps<T>, sliceMs: number): Promise<T> {
  let sliceStart = performance.now();
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    if (performance.now() - sliceStart > sliceMs) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
  }
}
