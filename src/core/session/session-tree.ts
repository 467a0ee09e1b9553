/**
 * The session tree as the app shows it (pure, linear in the number of entries): the index, the
 * leaf and the position it stands for, the current path, labels, and the children each shown
 * entry has once position markers (moves, old `leaf` entries) are seen through: a move's children
 * are shown as children of the entry it moved to, and a move is never a node. Built at once
 * (`buildTreeData`) or extended when entries are appended (`extendTreeData`): both give the same.
 * Rows of the tree view: session-tree-rows.ts.
 */

import { displayPosition, displayPositionId, isPositionMarker } from "./moves.ts";
import { buildTreeIndex, currentPath, resolveLabels, resolveLeafId, type TreeIndex } from "./tree.ts";
import type { SessionEntry } from "./types.ts";
import { weakCache } from "./weak-cache.ts";

export interface TreeData {
  entries: readonly SessionEntry[];
  index: TreeIndex;
  /** The leaf: where the next entry is appended (a move entry after a move). */
  leafId: string | null;
  /** The entry the leaf stands for (`displayPosition`): what the app highlights as current. */
  positionId: string | null;
  /** The current path, root first (`currentPath`; may hold position markers). Do not mutate. */
  path: SessionEntry[];
  /** Ids of the entries on the path (made when first read). */
  readonly pathIds: Set<string>;
  labels: Map<string, string>;
  /**
   * The shown children (file order) of the entries (null: roots and orphans) whose shown children
   * differ from `index.children`: a move among them, children lifted from a move, orphans. Read
   * with `shownChildren`. Empty for a session without moves or orphans (nothing to build).
   */
  shown: Map<string | null, SessionEntry[]>;
  /**
   * Same object as long as what the tree shows is unchanged apart from the position: appending
   * only position markers (a move) keeps it, so the rows' structure is reused.
   */
  shape: object;
}

/** The id an entry is shown under: its parent seen through markers (null: a root or an orphan). */
export function shownParentId(data: Pick<TreeData, "index">, entry: SessionEntry): string | null {
  return shownParent(data.index.byId, entry.parentId ?? null);
}

/** The id entries of structural parent `parentId` are shown under. */
function shownParent(byId: ReadonlyMap<string, SessionEntry>, parentId: string | null): string | null {
  return parentId === null ? null : displayPositionId(parentId, byId);
}

/** Whether the key can be asked for shown children: null (the roots) or a shown entry. */
function isShownKey(byId: ReadonlyMap<string, SessionEntry>, key: string | null): boolean {
  if (key === null) return true;
  const e = byId.get(key);
  return e !== undefined && !isPositionMarker(e);
}

/**
 * The overrides of `index.children` (see `TreeData.shown`). Keys that need one: the parent of a
 * marker (its list holds a marker), the entry a marker with children stands for, and null when
 * there are orphans. Only the entries under such keys, markers or missing parents are looked at
 * again, in file order.
 */
function buildShown(entries: readonly SessionEntry[], index: TreeIndex): Map<string | null, SessionEntry[]> {
  const { byId, children } = index;
  const shown = new Map<string | null, SessionEntry[]>();
  const redo = new Set<string | null>();
  const need = (key: string | null) => {
    if (!shown.has(key)) shown.set(key, []);
    redo.add(key);
  };
  for (const e of entries) {
    const parent = e.parentId ?? null;
    if (isPositionMarker(e)) {
      if (isShownKey(byId, parent)) need(parent);
      redo.add(e.id);
      if (children.has(e.id)) need(shownParent(byId, e.id));
    } else if (parent !== null && !byId.has(parent)) {
      need(null); // an orphan, shown as a root
      redo.add(parent);
    }
  }
  if (shown.size === 0) return shown;
  for (const e of entries) {
    if (isPositionMarker(e)) continue;
    const key = e.parentId ?? null;
    if (!redo.has(key)) continue;
    shown.get(shownParent(byId, key))?.push(e);
  }
  return shown;
}

function position(entries: readonly SessionEntry[], index: TreeIndex) {
  const leafId = resolveLeafId(entries) ?? null;
  const path = currentPath(entries, index);
  return { leafId, positionId: displayPositionId(leafId, index.byId), path };
}

const pathIdSets = weakCache<readonly SessionEntry[], Set<string>>();

/** The ids on a path, made when first asked for (only the tree's rows ask; a leaf move keeping the path keeps them). */
function pathIdsOf(path: readonly SessionEntry[]): Set<string> {
  let ids = pathIdSets.get(path);
  if (!ids) {
    ids = new Set(path.map((e) => e.id));
    pathIdSets.set(path, ids);
  }
  return ids;
}

/** The tree data of `entries` built from scratch (`index`: theirs, already built). */
export function buildTreeData(
  entries: readonly SessionEntry[],
  index: TreeIndex = buildTreeIndex(entries),
): TreeData {
  const { leafId, positionId, path } = position(entries, index);
  return {
    entries,
    index,
    leafId,
    positionId,
    path,
    get pathIds() {
      return pathIdsOf(path);
    },
    labels: resolveLabels(entries),
    shown: buildShown(entries, index),
    shape: {},
  };
}

/** Indexes one appended entry and keeps the overrides of `index.children` right (see `buildShown`). */
function append(
  index: TreeIndex,
  shown: Map<string | null, SessionEntry[]>,
  entry: SessionEntry,
  at: number,
) {
  const { byId, children, order } = index;
  if (!byId.has(entry.id)) {
    byId.set(entry.id, entry);
    order.set(entry.id, at);
  }
  const key = entry.parentId ?? null;
  // The shown list of `k` before this entry: its override, or its children (then marker-free).
  const own = (k: string | null) => {
    let list = shown.get(k);
    if (!list) {
      list = (children.get(k) ?? []).filter((e) => !isPositionMarker(e));
      shown.set(k, list);
    }
    return list;
  };
  if (isPositionMarker(entry)) {
    if (isShownKey(byId, key)) own(key);
  } else {
    const under = shownParent(byId, key);
    if (under !== key) own(under).push(entry);
    else shown.get(key)?.push(entry);
  }
  const list = children.get(key);
  if (list) list.push(entry);
  else children.set(key, [entry]);
}

/**
 * Entries are append-only: when `entries` starts with `prev.entries`, only the added ones are
 * indexed (a move appends one entry, so moving around a 100k-entry tree stays cheap). `prev`'s
 * maps are extended in place: `prev` is superseded. Undefined when `entries` is not an append
 * to `prev.entries` or when an added entry is the missing parent of an entry already indexed or
 * added before it (an orphan adopted: build afresh then).
 */
export function extendTreeData(prev: TreeData, entries: readonly SessionEntry[]): TreeData | undefined {
  const n = prev.entries.length;
  if (
    n === 0 ||
    entries.length <= n ||
    entries[0] !== prev.entries[0] ||
    entries[n - 1] !== prev.entries[n - 1]
  )
    return undefined;
  const { byId, children } = prev.index;
  const added = entries.slice(n);
  const parents = new Set<string | null>();
  for (const e of added) {
    if (!byId.has(e.id) && (children.has(e.id) || parents.has(e.id))) return undefined;
    parents.add(e.parentId ?? null);
  }
  for (let i = 0; i < added.length; i++) append(prev.index, prev.shown, added[i]!, n + i);
  const labels = added.some((e) => e.type === "label") ? new Map(prev.labels) : prev.labels;
  for (const e of added) {
    if (e.type !== "label" || typeof (e as { targetId?: unknown }).targetId !== "string") continue;
    const { targetId, label } = e as { targetId: string; label?: unknown };
    if (typeof label === "string" && label !== "") labels.set(targetId, label);
    else labels.delete(targetId);
  }
  const moved = resolveLeafId(entries) ?? null;
  const { leafId, positionId, path } = moved === prev.leafId ? prev : position(entries, prev.index);
  const shape = added.every(isPositionMarker) ? prev.shape : {};
  return {
    entries,
    index: prev.index,
    leafId,
    positionId,
    path,
    get pathIds() {
      return pathIdsOf(path);
    },
    labels,
    shown: prev.shown,
    shape,
  };
}

/** Children of an entry (null: the roots and orphans) as the tree shows them, in file order. */
export function shownChildren(data: TreeData, id: string | null): readonly SessionEntry[] {
  return data.shown.get(id) ?? data.index.children.get(id) ?? [];
}

/** Siblings of a shown entry (itself included), in file order: through moves, never a move. */
export function siblingsOf(data: TreeData, entry: SessionEntry): readonly SessionEntry[] {
  return shownChildren(data, shownParentId(data, entry));
}

/**
 * The shown entries that have siblings (`siblingsOf(data, e).length > 1`), from the children
 * lists at once: asking `siblingsOf` of each of 91k path entries was a third of the timeline
 * model's build. Markers are never counted (a list kept under a marker's id holds entries shown
 * under the entry it stands for, whose own list holds them too).
 */
export function entriesWithSiblings(data: TreeData): ReadonlySet<SessionEntry> {
  const out = new Set<SessionEntry>();
  const add = (list: readonly SessionEntry[]) => {
    if (list.length < 2) return;
    let shown = 0;
    for (const e of list) if (!isPositionMarker(e)) shown++;
    if (shown > 1) for (const e of list) if (!isPositionMarker(e)) out.add(e);
  };
  for (const list of data.shown.values()) add(list);
  for (const [key, list] of data.index.children) if (!data.shown.has(key)) add(list);
  return out;
}

/**
 * The position to move to when switching to the branch of `entry`: where that branch was left,
 * that is the entry of its subtree written last (file order), a move standing for the entry it
 * moved to (and an old `leaf` entry for the one it was written from).
 */
export function latestTip(data: TreeData, entry: SessionEntry): SessionEntry {
  let best = entry;
  let bestOrder = data.index.order.get(entry.id) ?? -1;
  const stack = [entry];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const e = stack.pop()!;
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    const order = data.index.order.get(e.id) ?? -1;
    if (order > bestOrder) {
      best = e;
      bestOrder = order;
    }
    for (const c of data.index.children.get(e.id) ?? []) stack.push(c);
  }
  return displayPosition(best, data.index.byId) ?? entry;
}
