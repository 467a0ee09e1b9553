/**
 * The context (pi 1.6's `buildSessionContext`) of the open session's current path, built once per
 * path array and shared: the pins (top bar, dialog, row actions), the composer, the context
 * account of the meter and the token timeline read the same one instead of each replaying a
 * 100k-entry path again. A long path's is built in slices (`warmSessionContext`) after the whole
 * session is on screen; the views that show something of it (`useSessionContext`) wait for it.
 */
import { useEffect, useSyncExternalStore } from "react";
import {
  buildSessionContext,
  buildSessionContextSteps,
  type SessionContext,
} from "../../core/session/context.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { weakCache } from "../../core/session/weak-cache.ts";
import { runStepsInSlices, WARM_SLICE_MS } from "../../services/common/yield.ts";

const contexts = weakCache<readonly SessionEntry[], SessionContext>();
const building = weakCache<readonly SessionEntry[], Promise<void>>();
const listeners = new Set<() => void>();

/** Paths up to this long have their context built when first read (a few ms); longer ones in slices. */
const AT_ONCE = 5000;

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
 * Builds the shared context of `path` in slices of WARM_SLICE_MS, with turns of the event loop between
 * them; then tells `useSessionContext` (also when a caller built it at once meanwhile: never
 * from inside a render).
 */
export function warmSessionContext(path: readonly SessionEntry[]): Promise<void> {
  if (contexts.has(path)) return Promise.resolve();
  let pending = building.get(path);
  if (!pending) {
    pending = runStepsInSlices(buildSessionContextSteps(path), WARM_SLICE_MS).then((context) => {
      building.delete(path);
      if (!contexts.has(path)) contexts.set(path, context);
      for (const listener of listeners) listener();
    });
    building.set(path, pending);
  }
  return pending;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * The shared context of `path`, as a hook: a short path's at once; a long one's once built in
 * slices (undefined until then; this starts it), so that no render builds it in one long task.
 */
export function useSessionContext(path: readonly SessionEntry[] | undefined): SessionContext | undefined {
  const context = useSyncExternalStore(subscribe, () =>
    path === undefined ? undefined : path.length <= AT_ONCE ? sharedSessionContext(path) : contexts.get(path),
  );
  useEffect(() => {
    if (path && !contexts.has(path)) void warmSessionContext(path);
  }, [path]);
  return context;
}
