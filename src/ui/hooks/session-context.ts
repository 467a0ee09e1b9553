/**
 * The context (pi 1.6's `buildSessionContext`) of the open session's current path, built once per
 * path array and shared: the pins (top bar, dialog, row actions), the context account of the meter
 * and the token timeline read the same one instead of each replaying a 100k-entry path again.
 */
import { buildSessionContext, type SessionContext } from "../../core/session/context.ts";
import type { SessionEntry } from "../../core/session/types.ts";

const contexts = new WeakMap<readonly SessionEntry[], SessionContext>();

/** The context at the end of `path` (do not mutate the result). */
export function sharedSessionContext(path: readonly SessionEntry[]): SessionContext {
  let context = contexts.get(path);
  if (!context) {
    context = buildSessionContext(path);
    contexts.set(path, context);
  }
  return context;
}
