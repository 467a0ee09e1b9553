/**
 * Work written as a generator of steps (each `yield` ends one): run all at once with `runSteps`,
 * or driven by a caller that gives the event loop a turn between steps (the import does, so that
 * no step of preparing a 100 MB file is a long task). Pure.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs every step at once; returns the result. */
export function runSteps<T>(steps: Steps<T>): T {
  let next = steps.next();
  while (!next.done) next = steps.next();
  return next.value;
}
