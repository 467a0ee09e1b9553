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
  /**
   * Same object as long as what the tree shows is unchanged apart from the leaf: appending only
   * `leaf` entries (a move) keeps it, so the rows' structure is reused (`buildTreeRows`).
   */
  shape: object;
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
  return { entries, index, leafId, pathIds, labels: resolveLabels(entries), shape: {} };
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
  const labels = added.some((e) => e.type === "label") ? new Map(prev.labels) : prev.labels;
  for (const e of added) {
    if (e.type !== "label" || typeof (e as { targetId?: unknown }).targetId !== "string") continue;
    const { targetId, label } = e as { targetId: string; label?: unknown };
    if (typeof label === "string" && label !== "") labels.set(targetId, label);
    else labels.delete(targetId);
  }
  const leafId = resolveLeafId(entries) ?? null;
  const pathIds = leafId === prev.leafId ? prev.pathIds : new Set(getPath(byId, leafId).map((e) => e.id));
  const shape = added.every((e) => e.type === "leaf") ? prev.shape : {};
  return { entries, index: prev.index, leafId, pathIds, labels, shape };
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
      /** The entries of the run, in order. */
      entries: readonly SessionEntry[];
      /** The first user message inside the run, if any (to say what the run is about). */
      firstUser: SessionEntry | undefined;
      /** Number of user messages inside the run. */
      userCount: number;
      count: number;
      depth: number;
    };

/** Whether a row is on the path to the current leaf (a run: its last entry is). */
export function rowOnPath(data: TreeData, row: TreeRow): boolean {
  return data.pathIds.has(row.kind === "entry" ? row.entry.id : row.last.id);
}

/** Whether a row is the current leaf. */
export function rowIsLeaf(data: TreeData, row: TreeRow): boolean {
  return row.kind === "entry" && row.entry.id === data.leafId;
}

function isUserMessage(e: SessionEntry): boolean {
  return e.type === "message" && (e as { message?: { role?: unknown } }).message?.role === "user";
}

/** Entries always shown on their own row (the leaf too: see `buildTreeRows`). */
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
    data.labels.has(e.id) ||
    e.type === "compaction" ||
    e.type === "branch_summary"
  );
}

type EntryRow = Extract<TreeRow, { kind: "entry" }>;

function entryRow(
  data: TreeData,
  e: SessionEntry,
  depth: number,
  childCount: number,
  sibling: { index: number; total: number } | undefined,
): EntryRow {
  return { kind: "entry", key: e.id, entry: e, depth, childCount, sibling, label: data.labels.get(e.id) };
}

/** The rows of a linear run: one collapsed row, or one row per entry (short or expanded). */
function runRows(
  data: TreeData,
  run: readonly SessionEntry[],
  depth: number,
  expandedRuns: ReadonlySet<string>,
  minRun: number,
  out: TreeRow[],
): void {
  if (run.length === 0) return;
  const first = run[0]!;
  const key = `run:${first.id}`;
  if (run.length < minRun || expandedRuns.has(key)) {
    const expanded = run.length >= minRun;
    for (const e of run) {
      const row = entryRow(data, e, depth, 1, undefined);
      if (expanded) row.runKey = key;
      out.push(row);
    }
    return;
  }
  let firstUser: SessionEntry | undefined;
  let userCount = 0;
  for (const e of run) {
    if (!isUserMessage(e)) continue;
    firstUser ??= e;
    userCount++;
  }
  out.push({
    kind: "run",
    key,
    first,
    last: run[run.length - 1]!,
    entries: run,
    firstUser,
    userCount,
    count: run.length,
    depth,
  });
}

interface Structure {
  data: TreeData;
  expandedRuns: ReadonlySet<string>;
  minRun: number;
  rows: TreeRow[];
  /** Entry id -> index of the collapsed run row that holds it. */
  runAt: Map<string, number>;
}

/** The rows of the last shape built (one per shape; a leaf move reuses it). */
const structures = new WeakMap<object, Structure>();

/**
 * Rows of the tree. `expandedRuns` holds keys of runs shown entry by entry (a run's key is
 * `run:<id of its first entry>`); runs shorter than `minRun` are never collapsed.
 *
 * The rows do not depend on the leaf, except that the leaf always has a row of its own: the
 * structure is built once per shape (`TreeData.shape`: unchanged by a leaf move) and, when the
 * leaf sits inside a collapsed run, only that run is split around it. So a move between leaves
 * of a 100k-entry tree costs no walk of the tree. On-path and leaf marks: `rowOnPath`, `rowIsLeaf`.
 */
export function buildTreeRows(
  data: TreeData,
  expandedRuns: ReadonlySet<string> = new Set(),
  minRun = 6,
): TreeRow[] {
  let s = structures.get(data.shape);
  if (!s || s.expandedRuns !== expandedRuns || s.minRun !== minRun) {
    s = buildStructure(data, expandedRuns, minRun);
    structures.set(data.shape, s);
  }
  const at = data.leafId === null ? undefined : s.runAt.get(data.leafId);
  if (at === undefined) return s.rows;
  const run = s.rows[at] as Extract<TreeRow, { kind: "run" }>;
  const k = run.entries.findIndex((e) => e.id === data.leafId);
  const middle: TreeRow[] = [];
  runRows(data, run.entries.slice(0, k), run.depth, expandedRuns, minRun, middle);
  middle.push(entryRow(data, run.entries[k]!, run.depth, 1, undefined));
  runRows(data, run.entries.slice(k + 1), run.depth, expandedRuns, minRun, middle);
  return [...s.rows.slice(0, at), ...middle, ...s.rows.slice(at + 1)];
}

function buildStructure(data: TreeData, expandedRuns: ReadonlySet<string>, minRun: number): Structure {
  const rows: TreeRow[] = [];
  const { index } = data;
  // Explicit stack of [entry, depth, siblingIndex, siblingTotal]; pushed in reverse order.
  const stack: [SessionEntry, number, number, number][] = [];
  const roots = rootsOf(index);
  for (let i = roots.length - 1; i >= 0; i--) stack.push([roots[i]!, 0, i + 1, roots.length]);
  let run: SessionEntry[] = [];
  let runDepth = 0;
  const flushRun = () => {
    if (run.length === 0) return;
    runRows(data, run, runDepth, expandedRuns, minRun, rows);
    run = [];
  };

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
        rows.push(
          entryRow(data, e, depth, kids.length, sTotal > 1 ? { index: sIndex, total: sTotal } : undefined),
        );
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
  const runAt = new Map<string, number>();
  rows.forEach((row, i) => {
    if (row.kind === "run") for (const e of row.entries) runAt.set(e.id, i);
  });
  return { data, expandedRuns, minRun, rows, runAt };
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
