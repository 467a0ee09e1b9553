/**
 * The entry forest of a session: index by id, children in file order, the leaf, the path
 * from a root to the leaf, labels and the session name. See docs/session-format.md §2.4, §6.
 * Everything here is linear in the number of entries.
 */
import type { SessionEntry } from "./types.ts";
import { isLabelEntry, isLeafEntry, isSessionInfoEntry } from "./types.ts";

export interface TreeIndex {
  byId: Map<string, SessionEntry>;
  /** Children of each id in file order; roots (parentId null) live under `null`. */
  children: Map<string | null, SessionEntry[]>;
  /** Index of each entry in file order. */
  order: Map<string, number>;
}

/**
 * Indexes the entries. When two entries share an id, the first one in file order wins in
 * `byId` / `order` (the later one still appears among its parent's children).
 */
export function buildTreeIndex(entries: readonly SessionEntry[]): TreeIndex {
  const index: TreeIndex = { byId: new Map(), children: new Map(), order: new Map() };
  extendTreeIndex(index, entries, 0);
  return index;
}

/**
 * Adds `entries[from..to)` to an index of `entries[0..from)` in place: the index of all of them,
 * as `buildTreeIndex` gives (a session just read is indexed a part at a time).
 */
export function extendTreeIndex(
  index: TreeIndex,
  entries: readonly SessionEntry[],
  from: number,
  to = entries.length,
): void {
  const { byId, children, order } = index;
  for (let i = from; i < to; i++) {
    const entry = entries[i]!;
    if (!byId.has(entry.id)) {
      byId.set(entry.id, entry);
      order.set(entry.id, i);
    }
    const parent = entry.parentId ?? null;
    const list = children.get(parent);
    if (list) list.push(entry);
    else children.set(parent, [entry]);
  }
}

/**
 * The leaf on load: the last entry in file order (as in pi; after a move that is the move entry,
 * see moves.ts), except that a trailing `leaf` entry of an older Cutpoint file moves it to its
 * `targetId` (null = before the first entry). `undefined` when there are no entries.
 */
export function resolveLeafId(entries: readonly SessionEntry[]): string | null | undefined {
  const last = entries[entries.length - 1];
  if (last === undefined) return undefined;
  if (isLeafEntry(last)) return typeof last.targetId === "string" ? last.targetId : null;
  return last.id;
}

/**
 * The path from a root to `leafId`, root first. Walks `parentId` upward once and reverses
 * once. Stops at a missing parent (the path then starts at the orphan) and at a cycle.
 */
export function getPath(
  byId: ReadonlyMap<string, SessionEntry>,
  leafId: string | null | undefined,
): SessionEntry[] {
  if (leafId === null || leafId === undefined) return [];
  // Without a cycle the walk meets each entry once, so a longer walk is in one: only then is a
  // set of the ids seen needed (keeping one costs more than the walk itself).
  return walkUp(byId, leafId, undefined) ?? walkUp(byId, leafId, new Set())!;
}

/**
 * The entries from `leafId` up to the root, root first. With `seen`, it stops before the first
 * repeat (a cycle); without, it gives up (undefined) once it is longer than the map.
 */
function walkUp(
  byId: ReadonlyMap<string, SessionEntry>,
  leafId: string,
  seen: Set<string> | undefined,
): SessionEntry[] | undefined {
  const path: SessionEntry[] = [];
  let current = byId.get(leafId);
  while (current !== undefined) {
    if (seen) {
      if (seen.has(current.id)) break;
      seen.add(current.id);
    } else if (path.length === byId.size) return undefined;
    path.push(current);
    const parentId = current.parentId;
    if (parentId === null || parentId === undefined) break;
    current = byId.get(parentId);
  }
  path.reverse();
  return path;
}

/**
 * The current path of a session: root first, ending at the leaf on load (`resolveLeafId`). The one
 * rule every reader of "where the session stands" uses (agent, compaction, tree, CLI). Without
 * `index`, only the id map it needs is built (first id wins, as in `buildTreeIndex`).
 */
export function currentPath(
  entries: readonly SessionEntry[],
  index?: Pick<TreeIndex, "byId">,
): SessionEntry[] {
  return pathTo(entries, resolveLeafId(entries) ?? null, index);
}

/** The path from a root to `leafId` (e.g. a stored leaf), with the same light id map as `currentPath`. */
export function pathTo(
  entries: readonly SessionEntry[],
  leafId: string | null,
  index?: Pick<TreeIndex, "byId">,
): SessionEntry[] {
  let byId = index?.byId;
  if (!byId) {
    // Backwards, so that the first entry of an id in file order is the one that stays.
    const ids = new Map<string, SessionEntry>();
    for (let i = entries.length - 1; i >= 0; i--) ids.set(entries[i]!.id, entries[i]!);
    byId = ids;
  }
  return getPath(byId, leafId);
}

/** Labels over the whole file in file order: the last label entry per target wins; empty clears. */
export function resolveLabels(entries: readonly SessionEntry[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const entry of entries) {
    if (!isLabelEntry(entry) || typeof entry.targetId !== "string") continue;
    const label = typeof entry.label === "string" ? entry.label : "";
    if (label === "") labels.delete(entry.targetId);
    else labels.set(entry.targetId, label);
  }
  return labels;
}

/** The latest `session_info` name, trimmed; an empty or absent name clears it. */
export function getSessionName(entries: readonly SessionEntry[]): string | undefined {
  let name: string | undefined;
  for (const entry of entries) {
    if (!isSessionInfoEntry(entry)) continue;
    const trimmed = typeof entry.name === "string" ? entry.name.trim() : "";
    name = trimmed === "" ? undefined : trimmed;
  }
  return name;
}
