/** Letting the page paint and handle input between two slices of a long job (load, import, warm-up, coverage). */

type SchedulerLike = { yield?: () => Promise<void> };

/** Lets the page paint and handle input: `scheduler.yield()` where there is one (no 4 ms clamp). */
export const yieldToEventLoop = (): Promise<void> => {
  const scheduler = (globalThis as { scheduler?: SchedulerLike }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise<void>((resolve) => setTimeout(resolve, 0));
};
