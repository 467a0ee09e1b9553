/**
 * Every valid cut point of the current window with what it would keep (for snapping the cut
 * line in the UI). O(cut points) on an index; O(n) including indexing the path.
 */
import type { SessionEntry } from "../session/types.ts";
import { splitAt, stepBack } from "./cut.ts";
import type { PathIndex } from "./path-index.ts";
import { indexPath } from "./plan.ts";
import type { Estimator } from "./tokens.ts";

export interface CutPointInfo {
  /** Index on the path of the valid cut point (a message, branch summary or custom message). */
  index: number;
  entryId: string;
  /** The first kept index after stepping back over settings entries before it (§7). */
  firstKeptIndex: number;
  firstKeptEntryId: string;
  isSplitTurn: boolean;
  turnStartIndex: number;
  /** Estimates of what the model sees that would be kept (first kept entry to the end). */
  keptTokens: number;
  /** Number of context entries that would be kept. */
  keptCount: number;
}

/**
 * A cut point whose fixed parts (index, first kept entry, split turn) depend only on the path up to
 * it and the window start, and whose kept numbers are read from the index's current totals, so
 * that the list survives appends. Plain data through toJSON.
 */
class CutPointView implements CutPointInfo {
  readonly #index: PathIndex;
  constructor(
    pathIndex: PathIndex,
    readonly index: number,
    readonly entryId: string,
    readonly firstKeptIndex: number,
    readonly firstKeptEntryId: string,
    readonly isSplitTurn: boolean,
    readonly turnStartIndex: number,
  ) {
    this.#index = pathIndex;
  }
  get keptTokens(): number {
    const x = this.#index;
    x.ensure();
    return x.winCum[x.length]! - x.winCum[this.firstKeptIndex]!;
  }
  get keptCount(): number {
    const x = this.#index;
    x.ensure();
    return x.ctxCount[x.length]! - x.ctxCount[this.firstKeptIndex]!;
  }
  toJSON(): CutPointInfo {
    const { index, entryId, firstKeptIndex, firstKeptEntryId, isSplitTurn, turnStartIndex } = this;
    return {
      index,
      entryId,
      firstKeptIndex,
      firstKeptEntryId,
      isSplitTurn,
      turnStartIndex,
      keptTokens: this.keptTokens,
      keptCount: this.keptCount,
    };
  }
}

interface CutPointCache {
  windowStart: number;
  truncations: number;
  points: CutPointView[];
  /** Rank (in the index's cut points) of the next point to add. */
  nextRank: number;
}

const caches = new WeakMap<PathIndex, CutPointCache>();

/**
 * All valid cut points of the window, oldest first (a new array each call). Kept numbers are read
 * from the index when accessed: read them before the index changes. Amortized O(new points)
 * plus the copy of the array.
 */
export function listCutPointsOnIndex(index: PathIndex): CutPointInfo[] {
  const end = index.length;
  if (end === 0 || index.entries[end - 1]!.type === "compaction") return [];
  const ws = Math.min(index.windowStart(), end);
  let cache = caches.get(index);
  if (!cache || cache.windowStart !== ws || cache.truncations !== index.truncations) {
    cache = { windowStart: ws, truncations: index.truncations, points: [], nextRank: index.cutPointRank(ws) };
    caches.set(index, cache);
  }
  for (; cache.nextRank < index.cutCount; cache.nextRank++) {
    const i = index.cutPoint(cache.nextRank);
    const cut = splitAt(index, stepBack(index, i, ws), ws);
    const fk = cut.firstKeptIndex;
    cache.points.push(
      new CutPointView(
        index,
        i,
        index.entries[i]!.id,
        fk,
        index.entries[fk]!.id,
        cut.isSplitTurn,
        cut.turnStartIndex,
      ),
    );
  }
  return cache.points.slice();
}

/** All valid cut points of the path's current window with the tokens kept at each. */
export function listCutPoints(
  path: readonly SessionEntry[],
  _settings?: { keepRecentTokens?: number; reserveTokens?: number },
  options: { estimator?: Estimator } = {},
): CutPointInfo[] {
  return listCutPointsOnIndex(indexPath(path, options.estimator));
}
