/**
 * Every valid cut point of the current window with what it would keep (for snapping the cut
 * line in the UI). O(cut points) on an index; O(n) including indexing the path.
 */
import type { SessionEntry } from "../session/types.ts";
import type { PathIndex } from "./path-index.ts";
import { indexPath, splitAt, stepBack } from "./plan.ts";
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
  /** Estimates of the context entries that would be kept (first kept entry to the end). */
  keptTokens: number;
  /** The cut rule's sum over `message` entries that would be kept. */
  keptMessageTokens: number;
  /** Number of context entries that would be kept. */
  keptCount: number;
}

/** All valid cut points of the window, oldest first. */
export function listCutPointsOnIndex(index: PathIndex): CutPointInfo[] {
  const end = index.length;
  const out: CutPointInfo[] = [];
  if (end === 0 || index.entries[end - 1]!.type === "compaction") return out;
  const ws = Math.min(index.windowStart(), end);
  for (let r = index.cutPointRank(ws); r < index.cutCount; r++) {
    const i = index.cutPoint(r);
    const cut = splitAt(index, stepBack(index, i, ws), ws);
    const fk = cut.firstKeptIndex;
    out.push({
      index: i,
      entryId: index.entries[i]!.id,
      firstKeptIndex: fk,
      firstKeptEntryId: index.entries[fk]!.id,
      isSplitTurn: cut.isSplitTurn,
      turnStartIndex: cut.turnStartIndex,
      keptTokens: index.ctxCum[end]! - index.ctxCum[fk]!,
      keptMessageTokens: index.msgCum[end]! - index.msgCum[fk]!,
      keptCount: index.ctxCount[end]! - index.ctxCount[fk]!,
    });
  }
  return out;
}

/** All valid cut points of the path's current window with the tokens kept at each. */
export function listCutPoints(
  path: readonly SessionEntry[],
  _settings?: { keepRecentTokens?: number; reserveTokens?: number },
  options: { estimator?: Estimator } = {},
): CutPointInfo[] {
  return listCutPointsOnIndex(indexPath(path, options.estimator));
}
