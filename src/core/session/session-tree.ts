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

export interface TreeData {
  entries: readonly SessionEntry[];
  index: TreeIndex;
  /** The leaf: where the next entry is appended (a move entry after a move). */
  leafId: string | null;
  /** The entry the leaf stands for (`displayPosition`): what the app highlights as current. */
  positionId: string | null;
  /** The current path, root first (`currentPath`; may hold position markers). Do not mutate. */
  path: SessionEntry[];
  /** Ids of the entries on the path. */
  pathIds: Set<string>;
  labels: Map<string, string>;
  /**
   * The children each entry is shown with, in file order (position markers left out, their
   * children lifted to the entry they stand for); roots and orphans under `null`.
   */
  shown: Map<string | null, SessionEntry[]>;
  /**
   * Same object as long as what the tree shows is unchanged apart from the position: appending
   * only position markers (a move) keeps it, so the rows' structure is reused.
   */
  shape: object;
}

function parentShown(byId: ReadonlyMap<string, SessionEntry>, entry: SessionEntry): string | null {
  return entry.parentId === null || entry.parentId === undefined
    ? null
    : displayPositionId(entry.parentId, byId);
}

/** The id an entry is shown under: its parent seen through markers (null: a root or an orphan). */
export function shownParentId(data: Pick<TreeData, "index">, entry: SessionEntry): string | null {
  return parentShown(data.index.byId, entry);
}

function addShown(
  shown: Map<string | null, SessionEntry[]>,
  byId: ReadonlyMap<string, SessionEntry>,
  entry: SessionEntry,
): void {
  if (isPositionMarker(entry)) return;
  const parent = parentShown(byId, entry);
  const list = shown.get(parent);
  if (list) list.push(entry);
  else shown.set(parent, [entry]);
}

function position(entries: readonly SessionEntry[], index: TreeIndex) {
  const leafId = resolveLeafId(entries) ?? null;
  const path = currentPath(entries, index);
  return { leafId, positionId: displayPositionId(leafId, index.byId), path };
}

/** The tree data of `entries` built from scratch. */
export function buildTreeData(entries: readonly SessionEntry[]): TreeData {
  const index = buildTreeIndex(entries);
  const shown = new Map<string | null, SessionEntry[]>();
  for (const e of entries) addShown(shown, index.byId, e);
  const { leafId, positionId, path } = position(entries, index);
  const pathIds = new Set(path.map((e) => e.id));
  return {
    entries,
    index,
    leafId,
    positionId,
    path,
    pathIds,
    labels: resolveLabels(entries),
    shown,
    shape: {},
  };
}

/**
 * Entries are append-only: when `entries` starts with `prev.entries`, only the added ones are
 * indexed (a move appends one entry, so moving around a 100k-entry tree stays cheap). `prev`'s
 * maps are extended in place: `prev` is superseded. Undefined when `entries` is not an append
 * to `prev.entries` or when an added entry is the missing parent of an entry already indexed (an
 * orphan adopted: build afresh then).
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
  const { byId, children, order } = prev.index;
  const added = entries.slice(n);
  for (const e of added) if (!byId.has(e.id) && children.has(e.id)) return undefined;
  for (let i = 0; i < added.length; i++) {
    const entry = added[i]!;
    if (!byId.has(entry.id)) {
      byId.set(entry.id, entry);
      order.set(entry.id, n + i);
    }
    const parent = entry.parentId ?? null;
    const list = children.get(parent);
    if (list) list.push(entry);
    else children.set(parent, [entry]);
  }
  for (const e of added) addShown(prev.shown, byId, e);
  const labels = added.some((e) => e.type === "label") ? new Map(prev.labels) : prev.labels;
  for (const e of added) {
    if (e.type !== "label" || typeof (e as { targetId?: unknown }).targetId !== "string") continue;
    const { targetId, label } = e as { targetId: string; label?: unknown };
    if (typeof label === "string" && label !== "") labels.set(targetId, label);
    else labels.delete(targetId);
  }
  const moved = resolveLeafId(entries) ?? null;
  const { leafId, positionId, path } = moved === prev.leafId ? prev : position(entries, prev.index);
  const pathIds = path === prev.path ? prev.pathIds : new Set(path.map((e) => e.id));
  const shape = added.every(isPositionMarker) ? prev.shape : {};
  return { entries, index: prev.index, leafId, positionId, path, pathIds, labels, shown: prev.shown, shape };
}

/** Children of an entry (null: the roots and orphans) as the tree shows them, in file order. */
export function shownChildren(data: TreeData, id: string | null): readonly SessionEntry[] {
  return data.shown.get(id) ?? [];
}

/** Siblings of a shown entry (itself included), in file order: through moves, never a move. */
export function siblingsOf(data: TreeData, entry: SessionEntry): readonly SessionEntry[] {
  return shownChildren(data, shownParentId(data, entry));
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
