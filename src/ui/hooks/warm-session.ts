/**
 * Once a big session is read (its token estimates are made, or taken from storage, while it is
 * read: services/session/session-loader.ts), builds what opening it needs: the tree index a part at
 * a time, the tree data, the current path and the timeline model in tasks of their own
 * (`warmViews`), and after the whole session is shown, the models other views build from the
 * path (`warmPathModels`). Without it, all of that
 * ran in one long task when the load finished.
 */
import { useCallback, useSyncExternalStore } from "react";
import type { SessionEntry } from "../../core/session/types.ts";
import { WARM_SLICE_MS, yieldToEventLoop } from "../../services/common/yield.ts";
import { warmTimelineModel } from "../timeline/timeline-model.ts";
import { growTreeIndex, sessionPath, treeData } from "../tree/tree-model.ts";

/** Entries indexed per task after the load (~10 ms). */
const TREE_PART = 32_768;

/**
 * A part of the session view that builds its own model from the whole path (the compaction
 * model, the pins): `warm` builds it ahead, calling `step` between parts (each part a task of its
 * own, so that none is long).
 */
export type PathWarmer = (
  sessionId: string,
  path: SessionEntry[],
  /** Ends a part (`part` names it in the User Timing measure) and yields. */
  step: (part: string) => Promise<void>,
) => Promise<void> | void;

const warmers: PathWarmer[] = [];

/** Adds a warmer run after every full load (by the UI modules at start-up, like the slots). */
export function addPathWarmer(warmer: PathWarmer): void {
  warmers.push(warmer);
}

/**
 * After the load, before the views render the whole session: the whole tree data, the current
 * path and the timeline model, each in tasks of their own, so that the render that shows the
 * whole session finds them built and is short.
 */
export async function warmViews(entries: readonly SessionEntry[], signal?: AbortSignal): Promise<void> {
  const step = measuredStep(signal);
  try {
    // The tree index a part per task, once the entries are read: indexed while they were parsed,
    // each new entry referenced from the index's maps cost the next garbage collections more
    // (~100 ms for 91k entries, against ~30 ms for the same entries afterwards).
    for (let at = 0; at < entries.length; at += TREE_PART) {
      growTreeIndex(entries, at + TREE_PART);
      await step("index");
    }
    treeData(entries);
    await step("tree");
    sessionPath(entries);
    await step("path");
    await warmTimelineModel(entries, WARM_SLICE_MS, () => step("timeline"));
    await step("timeline");
  } catch (error) {
    if (!isAbort(error)) throw error;
  }
}

/** Paths whose models the registered warmers are building (`warmPathModels`). */
const warming = new Set<readonly SessionEntry[]>();
const warmingListeners = new Set<() => void>();

function setWarming(path: readonly SessionEntry[], on: boolean): void {
  if (on) warming.add(path);
  else warming.delete(path);
  for (const listener of warmingListeners) listener();
}

/**
 * Runs every registered warmer on the path (the compaction model, the pins), in tasks of their
 * own, while the whole session is already shown. Until they are done `usePathWarming(path)` is
 * true: a view that needs such a model shows that it is being counted instead of building it in
 * one long task of its own.
 */
export async function warmPathModels(
  sessionId: string,
  path: readonly SessionEntry[],
  signal?: AbortSignal,
  /** The warmers start once it resolves (the whole session is on screen). */
  after?: Promise<void>,
): Promise<void> {
  setWarming(path, true);
  try {
    await after;
    const step = measuredStep(signal);
    await step("start");
    for (const warm of warmers) await warm(sessionId, path as SessionEntry[], step);
    step.end("models");
  } catch (error) {
    if (!isAbort(error)) throw error;
  } finally {
    setWarming(path, false);
  }
}

/** Whether the registered warmers are building the models of `path` (see `warmPathModels`). */
export function isPathWarming(path: readonly SessionEntry[]): boolean {
  return warming.has(path);
}

/** `isPathWarming`, as a React hook (re-renders when it changes). */
export function usePathWarming(path: readonly SessionEntry[] | undefined): boolean {
  const subscribe = useCallback((listener: () => void) => {
    warmingListeners.add(listener);
    return () => warmingListeners.delete(listener);
  }, []);
  return useSyncExternalStore(subscribe, () => path !== undefined && isPathWarming(path));
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === "AbortError";

/**
 * A step between parts of a warm-up: each part is a User Timing measure "cutpoint:warm <part>"
 * (the storage bench reports them); then it yields, and throws an AbortError once aborted.
 */
function measuredStep(signal: AbortSignal | undefined) {
  let started = performance.now();
  const end = (part: string) => performance.measure(`cutpoint:warm ${part}`, { start: started });
  const step = async (part: string) => {
    end(part);
    await yieldToEventLoop();
    if (signal?.aborted) throw new DOMException("aborted", "AbortError");
    started = performance.now();
  };
  return Object.assign(step, { end });
}
