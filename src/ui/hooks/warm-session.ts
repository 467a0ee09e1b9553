/**
 * While a big session loads, fills the caches that opening it needs, a few entries at a time
 * inside the loader's time slices (src/services/session-loader.ts `onEntries`): each entry's
 * token estimate (pi's chars/4, cached per message and shared by the timeline and the compaction
 * planner) and the tree index (extended as entries arrive, so the full index at the end only
 * adds the last ones); then, once loaded, the full index and the current path in tasks of their
 * own (`finishWarming`). Without it, all of that ran in one long task when the load finished.
 */
import { entryMessage } from "../../core/compaction/entry-messages.ts";
import { PI_ESTIMATOR } from "../../core/compaction/tokens.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { yieldToEventLoop } from "../../services/session-loader.ts";
import { sessionPath, treeData } from "../tree/tree-model.ts";

/**
 * The first extension of the tree index; each next one when the entries have doubled since (an
 * extension copies the array and walks the current path once, so doubling keeps that linear).
 */
const TREE_STEP = 8192;

/** A warmer for one load: pass it as `onEntries`. */
export function createSessionWarmer(): (entries: readonly SessionEntry[], from: number) => void {
  let indexed = 0;
  return (entries, from) => {
    for (let i = from; i < entries.length; i++) {
      const message = entryMessage(entries[i]!);
      if (message) PI_ESTIMATOR.estimateMessage(message);
    }
    if (entries.length - indexed >= Math.max(TREE_STEP, indexed)) {
      // A snapshot: treeData caches per array and extends the latest index when the new array
      // starts with the same entries (the loaded session's array will).
      treeData(entries.slice());
      indexed = entries.length;
    }
  };
}

/** After the load: the whole tree index, then the current path, each in a task of its own. */
export async function finishWarming(entries: readonly SessionEntry[]): Promise<void> {
  treeData(entries);
  await yieldToEventLoop();
  sessionPath(entries);
  await yieldToEventLoop();
}
