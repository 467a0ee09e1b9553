/**
 * The open session's tree data, cached per entries array: the data of the latest array is
 * extended when the next one appends to it (a move appends one entry), so the tree, the timeline,
 * the composer and the compaction model share one index and path. The model itself is core's
 * (src/core/session/session-tree.ts, session-tree-rows.ts).
 */

import { isPositionMarker } from "../../core/session/moves.ts";
import { buildTreeData, extendTreeData, type TreeData } from "../../core/session/session-tree.ts";
import { extendTreeIndex, type TreeIndex } from "../../core/session/tree.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { weakCache } from "../../core/session/weak-cache.ts";

const cache = weakCache<readonly SessionEntry[], TreeData>();
let latest: TreeData | undefined;
/** Indexes of arrays being filled (a session being read): `count` entries are in `index`. */
const growing = weakCache<readonly SessionEntry[], { index: TreeIndex; count: number }>();

/**
 * Indexes `entries[..to)` past what the last call indexed (a session just read, a part per task):
 * `treeData` of the array, once all of it is indexed, only resolves the path, labels and shown
 * children.
 */
export function growTreeIndex(entries: readonly SessionEntry[], to = entries.length): void {
  // Its tree data is built already (a session open earlier, taken from memory).
  if (cache.has(entries)) return;
  let grown = growing.get(entries);
  if (!grown) {
    grown = { index: { byId: new Map(), children: new Map(), order: new Map() }, count: 0 };
    growing.set(entries, grown);
  }
  const end = Math.min(to, entries.length);
  extendTreeIndex(grown.index, entries, grown.count, end);
  grown.count = Math.max(grown.count, end);
}

/** Tree data of a session's entries (see the module comment). */
export function treeData(entries: readonly SessionEntry[]): TreeData {
  const hit = cache.get(entries);
  if (hit) return hit;
  const grown = growing.get(entries);
  growing.delete(entries);
  const data =
    grown?.count === entries.length
      ? buildTreeData(entries, grown.index)
      : ((latest && extendTreeData(latest, entries)) ?? buildTreeData(entries));
  cache.set(entries, data);
  latest = data;
  return data;
}

/**
 * Where the next entry of the session goes (its leaf), by the entries shown: the leaf a write
 * expects must be the one of the path it was made from. (The session row's `leafId` comes from a
 * live query that can lag an append made in this page by a moment: a write right after another
 * was refused as stale.)
 */
export function leafOf(entries: readonly SessionEntry[]): string | null {
  return treeData(entries).leafId;
}

/** The current path (root first) of a session's entries. Do not mutate the result. */
export function sessionPath(entries: readonly SessionEntry[]): SessionEntry[] {
  return treeData(entries).path;
}

/**
 * The current path without position markers (moves, old `leaf` entries): what the timeline
 * lists. Derived once per tree data. Do not mutate the result.
 */
const shownPaths = weakCache<SessionEntry[], SessionEntry[]>();
export function shownPath(data: TreeData): SessionEntry[] {
  let path = shownPaths.get(data.path);
  if (!path) {
    path = data.path.some(isPositionMarker) ? data.path.filter((e) => !isPositionMarker(e)) : data.path;
    shownPaths.set(data.path, path);
  }
  return path;
}
