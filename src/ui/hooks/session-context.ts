/**
 * The context (pi 1.6's `buildSessionContext`) of the open session's current path, built once per
 * path array and shared: the pins (top bar, dialog, row actions), the context account of the meter
 * and the token timeline read the same one instead of each replaying a 100k-entry path again.
 */

import {
  buildSessionContext,
  buildSessionContextSteps,
  type SessionContext,
} from "../../core/session/context.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { weakCache } from "../../core/session/weak-cache.ts";
import { runStepsInSlices } from "../../services/yield.ts";

const contexts = weakCache<readonly SessionEntry[], SessionContext>();

/** The context at the end of `path` (do not mutate the result). */
export function sharedSessionContext(path: readonly SessionEntry[]): SessionContext {
  let context = contexts.get(path);
  if (!context) {
    context = buildSessionContext(path);
    contexts.set(path, context);
  }
  return context;
}

/**
 * Builds the shared context of `path` ahead, in slices of `sliceMs` with turns of the event loop
 * between them (a big session's, before the render that shows it: src/ui/hooks/warm-session.ts).
 */
export async function warmSessionContext(path: readonly SessionEntry[], sliceMs: number): Promise<void> {
  if (contexts.has(path)) return;
  const context = await runStepsInSlices(buildSessionContextSteps(path), sliceMs);
  if (!contexts.has(path)) contexts.set(path, context);
}
