/**
 * While a big session loads, fills the caches that opening it needs, a few entries at a time
 * inside the loader's time slices (src/services/session-loader.ts `onEntries`): each entry's
 * token estimate (pi's chars/4, cached per message and shared by the timeline and the compaction
 * planner) and the tree index (grown as entries arrive, so that the tree data at the end only
 * resolves the path, labels and shown children); then, once loaded, the tree data and the current
 * path in tasks of their own, and the models the views build from the path (`finishWarming`). Without it, all of that
 * ran in one long task when the load finished.
 */
import { entryMessage } from "../../core/compaction/entry-messages.ts";
import { PI_ESTIMATOR } from "../../core/compaction/tokens.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { yieldToEventLoop } from "../../services/session-loader.ts";
import { warmTimelineModel } from "../timeline/timeline-model.ts";
import { growTreeIndex, sessionPath, treeData } from "../tree/tree-model.ts";

/** Work per task while the timeline model is built ahead. */
const WARM_SLICE_MS = 10;

/** A warmer for one load: pass it as `onEntries`. */
export function createSessionWarmer(): (entries: readonly SessionEntry[], from: number) => void {
  return (entries, from) => {
    for (let i = from; i < entries.length; i++) {
      const message = entryMessage(entries[i]!);
      if (message) PI_ESTIMATOR.estimateMessage(message);
    }
    growTreeIndex(entries);
  };
}

/**
 * A part of the session view that builds its own model from the whole path (the compaction
 * model, the pins): `warm` builds it ahead, calling `step` between parts (each part a task of its
 * own, so that none is long).
 */
export type PathWarmer = (
  sessionId: string,
  path: SessionEntry[],
  step: () => Promise<void>,
) => Promise<void> | void;

const warmers: PathWarmer[] = [];

/** Adds a warmer run after every full load (by the UI modules at start-up, like the slots). */
export function addPathWarmer(warmer: PathWarmer): void {
  warmers.push(warmer);
}

/**
 * After the load, before the views render the whole session: the whole tree index, the current
 * path, the timeline model, then every registered warmer, each in tasks of their own, so that the
 * render that shows the whole session finds them built and is short.
 */
export async function finishWarming(
  sessionId: string,
  entries: readonly SessionEntry[],
  signal?: AbortSignal,
): Promise<void> {
  // Each part is a User Timing measure "cutpoint:warm" (the storage bench reports them).
  let started = performance.now();
  const step = async () => {
    performance.measure("cutpoint:warm", { start: started });
    await yieldToEventLoop();
    if (signal?.aborted) throw new DOMException("aborted", "AbortError");
    started = performance.now();
  };
  try {
    treeData(entries);
    await step();
    const path = sessionPath(entries);
    await step();
    await warmTimelineModel(entries, WARM_SLICE_MS, step);
    await step();
    for (const warm of warmers) await warm(sessionId, path, step);
    performance.measure("cutpoint:warm", { start: started });
  } catch (error) {
    if (!(error instanceof DOMException && error.name === "AbortError")) throw error;
  }
}
