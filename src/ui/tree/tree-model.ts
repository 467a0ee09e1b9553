/**
 * The data behind the tree view (pure, linear in the number of entries): the whole session as
 * rows of a depth-first walk, where a node with several children indents each child's subtree one
 * level and a single child continues at the same depth. Linear runs (entries between branch
 * points, tips, the leaf, labels and summaries) of `minRun` entries or more collapse into one row ("… 1,234 entries") unless expanded. `leaf` entries are bookkeeping and
 * never shown.
 */
import {
  buildTreeIndex,
  getPath,
  resolveLabels,
  resolveLeafId,
  type TreeIndex,
} from "../../core/session/tree.ts";
import type { SessionEntry } from "../../core/session/types.ts";

export interface TreeData {
  entries: readonly SessionEntry[];
  index: TreeIndex;
  leafId: string | null;
  /** Ids of the entries on the path to the leaf. */
  pathIds: Set<string>;
  labels: Map<string, string>;
}

/** Index, leaf, path and labels of a session (cached per entries array). */
const cache = new WeakMap<readonly SessionEntry[], TreeData>();
let latest: TreeData | undefined;

export function treeData(entries: readonly SessionEntry[]): TreeData {
  const hit = cache.get(entries);
  if (hit) return hit;
  const data = (latest && extend(latest, entries)) ?? fresh(entries);
  cache.set(entries, data);
  latest = data;
  return data;
}

function fresh(entries: readonly SessionEntry[]): TreeData {
  const index = buildTreeIndex(entries);
  const leafId = resolveLeafId(entries) ?? null;
  const pathIds = new Set(getPath(index.byId, leafId).map((e) => e.id));
  return { entries, index, leafId, pathIds, labels: resolveLabels(entries) };
}

/**
 * Entries are append-only: when `entries` starts with `prev.entries`, index only the added ones
 * (a leaf move appends one entry, so navigating a 100k-entry tree stays cheap). The index maps
 * are extended in place; `prev` is superseded.
 */
function extend(prev: TreeData, entries: readonly SessionEntry[]): TreeData | undefined {
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
  // Roots change only when an added entry is a root or an orphan.
  if (added.some((e) => e.parentId === null || !byId.has(e.parentId))) rootsCache.delete(prev.index);
  const labels = new Map(prev.labels);
  for (const e of added) {
    if (e.type !== "label" || typeof (e as { targetId?: unknown }).targetId !== "string") continue;
    const { targetId, label } = e as { targetId: string; label?: unknown };
    if (typeof label === "string" && label !== "") labels.set(targetId, label);
    else labels.delete(targetId);
  }
  const leafId = resolveLeafId(entries) ?? null;
  const pathIds = leafId === prev.leafId ? prev.pathIds : new Set(getPath(byId, leafId).map((e) => e.id));
  return { entries, index: prev.index, leafId, pathIds, labels };
}

/** Children that the tree shows (everything but `leaf` entries), in file order. */
export function visibleChildren(index: TreeIndex, parentId: string | null): SessionEntry[] {
  const list = index.children.get(parentId);
  if (!list) return [];
  let hidden = false;
  for (const e of list) if (e.type === "leaf") hidden = true;
  return hidden ? list.filter((e) => e.type !== "leaf") : list;
}

/** Roots (parentId null) and orphans (parent missing), in file order. */
const rootsCache = new WeakMap<TreeIndex, SessionEntry[]>();
export function rootsOf(index: TreeIndex): SessionEntry[] {
  const hit = rootsCache.get(index);
  if (hit) return hit;
  const out = computeRoots(index);
  rootsCache.set(index, out);
  return out;
}

function computeRoots(index: TreeIndex): SessionEntry[] {
  const roots = visibleChildren(index, null);
  let orphans: SessionEntry[] | undefined;
  for (const [parentId, list] of index.children) {
    if (parentId === null || index.byId.has(parentId)) continue;
    orphans ??= [];
    for (const e of list) if (e.type !== "leaf") orphans.push(e);
  }
  if (!orphans) return roots;
  return [...roots, ...orphans].sort((a, b) => (index.order.get(a.id) ?? 0) - (index.order.get(b.id) ?? 0));
}

export type TreeRow =
  | {
      kind: "entry";
      key: string;
      entry: SessionEntry;
      depth: number;
      onPath: boolean;
      isLeaf: boolean;
      /** Number of visible children (0 = a tip; > 1 = a branch point). */
      childCount: number;
      /** 1-based position among its siblings when it has some. */
      sibling: { index: number; total: number } | undefined;
      label: string | undefined;
      /** Set when the row belongs to an expanded run (its key, to collapse it again). */
      runKey?: string;
    }
  | {
      kind: "run";
      key: string;
      first: SessionEntry;
      last: SessionEntry;
      /** The first user message inside the run, if any (to say what the run is about). */
      firstUser: SessionEntry | undefined;
      /** Number of user messages inside the run. */
      userCount: number;
      count: number;
      depth: number;
      onPath: boolean;
    };

function isUserMessage(e: SessionEntry): boolean {
  return e.type === "message" && (e as { message?: { role?: unknown } }).message?.role === "user";
}

/** Entries always shown on their own row. */
function isInteresting(
  e: SessionEntry,
  childCount: number,
  siblingCount: number,
  data: TreeData,
  root: boolean,
): boolean {
  return (
    root ||
    childCount !== 1 ||
    siblingCount > 1 ||
    e.id === data.leafId ||
    data.labels.has(e.id) ||
    e.type === "compaction" ||
    e.type === "branch_summary"
  );
}

/**
 * Rows of the tree. `expandedRuns` holds keys of runs shown entry by entry (a run's key is
 * `run:<id of its first entry>`); runs shorter than `minRun` are never collapsed.
 */
export function buildTreeRows(
  data: TreeData,
  expandedRuns: ReadonlySet<string> = new Set(),
  minRun = 6,
): TreeRow[] {
  const rows: TreeRow[] = [];
  const { index } = data;
  // Explicit stack of [entry, depth, siblingIndex, siblingTotal]; pushed in reverse order.
  const stack: [SessionEntry, number, number, number][] = [];
  const roots = rootsOf(index);
  for (let i = roots.length - 1; i >= 0; i--) stack.push([roots[i]!, 0, i + 1, roots.length]);
  const run: SessionEntry[] = [];
  let runDepth = 0;

  const flushRun = () => {
    if (run.length === 0) return;
    const first = run[0]!;
    const key = `run:${first.id}`;
    if (run.length < minRun || expandedRuns.has(key)) {
      const expanded = run.length >= minRun;
      for (const e of run) {
        const row = entryRow(e, runDepth, 1, undefined);
        if (expanded && row.kind === "entry") row.runKey = key;
        rows.push(row);
      }
    } else {
      const last = run[run.length - 1]!;
      let firstUser: SessionEntry | undefined;
      let userCount = 0;
      for (const e of run) {
        if (!isUserMessage(e)) continue;
        firstUser ??= e;
        userCount++;
      }
      rows.push({
        kind: "run",
        key,
        first,
        last,
        firstUser,
        userCount,
        count: run.length,
        depth: runDepth,
        onPath: data.pathIds.has(last.id),
      });
    }
    run.length = 0;
  };

  const entryRow = (
    e: SessionEntry,
    depth: number,
    childCount: number,
    sibling: { index: number; total: number } | undefined,
  ): TreeRow => ({
    kind: "entry",
    key: e.id,
    entry: e,
    depth,
    onPath: data.pathIds.has(e.id),
    isLeaf: e.id === data.leafId,
    childCount,
    sibling,
    label: data.labels.get(e.id),
  });

  // Duplicate ids (possible in damaged files) would be visited twice: dedupe only then.
  const seen = index.byId.size !== data.entries.length ? new Set<string>() : undefined;
  while (stack.length > 0) {
    let [e, depth, sIndex, sTotal] = stack.pop()!;
    // Follow single-child chains in place (no stack traffic on the long linear parts).
    for (;;) {
      if (seen) {
        if (seen.has(e.id)) break;
        seen.add(e.id);
      }
      const kids = visibleChildren(index, e.id);
      const root = e.parentId === null || !index.byId.has(e.parentId);
      if (isInteresting(e, kids.length, sTotal, data, root)) {
        flushRun();
        rows.push(entryRow(e, depth, kids.length, sTotal > 1 ? { index: sIndex, total: sTotal } : undefined));
      } else {
        if (run.length === 0) runDepth = depth;
        run.push(e);
      }
      if (kids.length === 1) {
        e = kids[0]!;
        sIndex = 1;
        sTotal = 1;
        continue;
      }
      for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i]!, depth + 1, i + 1, kids.length]);
      flushRun();
      break;
    }
  }
  flushRun();
  return rows;
}

/**
 * The tip to move to when switching to the branch of `entry`: the entry of its subtree written
 * last (file order), so "switch to branch 2" lands where that branch was left.
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
    for (const c of visibleChildren(data.index, e.id)) stack.push(c);
  }
  return best;
}

/** Siblings of an entry (itself included) that the tree shows, in file order. */
export function siblingsOf(data: TreeData, entry: SessionEntry): SessionEntry[] {
  if (entry.parentId === null || !data.index.byId.has(entry.parentId)) return rootsOf(data.index);
  return visibleChildren(data.index, entry.parentId);
}

/**
 * The current path (root first) of a session's entries, derived once per entries array from the
 * incrementally extended index of `treeData` (no O(n) index rebuild after a leaf move). Shared by
 * the timeline, the composer and the compaction model. Do not mutate the result.
 */
const pathCache = new WeakMap<TreeData, SessionEntry[]>();
export function sessionPath(entries: readonly SessionEntry[]): SessionEntry[] {
  const data = treeData(entries);
  let path = pathCache.get(data);
  if (!path) {
    path = getPath(data.index.byId, data.leafId);
    pathCache.set(data, path);
  }
  return path;
}
