/**
 * Rows of the tree view (pure): the session as a depth-first walk of the shown tree
 * (session-tree.ts: position markers seen through), where a node with several children indents
 * each child's subtree one level and a single child continues at the same depth. Linear runs
 * (entries between branch points, tips, the current position, labels and summaries) of `minRun`
 * entries or more collapse into one row ("… 1,234 entries") unless expanded.
 */

import { shownChildren, type TreeData } from "./session-tree.ts";
import type { SessionEntry } from "./types.ts";
import { weakCache } from "./weak-cache.ts";

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

/** Whether a row is on the current path (a run: its last entry is). */
export function rowOnPath(data: TreeData, row: TreeRow): boolean {
  return data.pathIds.has(row.kind === "entry" ? row.entry.id : row.last.id);
}

/** Whether a row is the current position (the leaf, seen through a move). */
export function rowIsLeaf(data: TreeData, row: TreeRow): boolean {
  return row.kind === "entry" && row.entry.id === data.positionId;
}

function isUserMessage(e: SessionEntry): boolean {
  return e.type === "message" && (e as { message?: { role?: unknown } }).message?.role === "user";
}

/** Entries always shown on their own row (the current position too: see `buildTreeRows`). */
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

/** The rows of the last shape built (one per shape; a move reuses it). */
const structures = weakCache<object, Structure>();

/**
 * Rows of the tree. `expandedRuns` holds keys of runs shown entry by entry (a run's key is
 * `run:<id of its first entry>`); runs shorter than `minRun` are never collapsed.
 *
 * The rows do not depend on the position, except that the current position always has a row of
 * its own: the structure is built once per shape (`TreeData.shape`: unchanged by a move) and,
 * when the position sits inside a collapsed run, only that run is split around it. So a move
 * between leaves of a 100k-entry tree costs no walk of the tree. Marks: `rowOnPath`, `rowIsLeaf`.
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
  const here = data.positionId;
  const at = here === null ? undefined : s.runAt.get(here);
  if (at === undefined) return s.rows;
  const run = s.rows[at] as Extract<TreeRow, { kind: "run" }>;
  const k = run.entries.findIndex((e) => e.id === here);
  const middle: TreeRow[] = [];
  runRows(data, run.entries.slice(0, k), run.depth, expandedRuns, minRun, middle);
  middle.push(entryRow(data, run.entries[k]!, run.depth, 1, undefined));
  runRows(data, run.entries.slice(k + 1), run.depth, expandedRuns, minRun, middle);
  return [...s.rows.slice(0, at), ...middle, ...s.rows.slice(at + 1)];
}

function buildStructure(data: TreeData, expandedRuns: ReadonlySet<string>, minRun: number): Structure {
  const rows: TreeRow[] = [];
  // Explicit stack of [entry, depth, siblingIndex, siblingTotal, root]; pushed in reverse order.
  const stack: [SessionEntry, number, number, number, boolean][] = [];
  const roots = shownChildren(data, null);
  for (let i = roots.length - 1; i >= 0; i--) stack.push([roots[i]!, 0, i + 1, roots.length, true]);
  let run: SessionEntry[] = [];
  let runDepth = 0;
  const flushRun = () => {
    if (run.length === 0) return;
    runRows(data, run, runDepth, expandedRuns, minRun, rows);
    run = [];
  };

  // Duplicate ids (possible in damaged files) would be visited twice: dedupe only then.
  const seen = data.index.byId.size !== data.entries.length ? new Set<string>() : undefined;
  while (stack.length > 0) {
    let [e, depth, sIndex, sTotal, root] = stack.pop()!;
    // Follow single-child chains in place (no stack traffic on the long linear parts).
    for (;;) {
      if (seen) {
        if (seen.has(e.id)) break;
        seen.add(e.id);
      }
      const kids = shownChildren(data, e.id);
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
        root = false;
        continue;
      }
      for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i]!, depth + 1, i + 1, kids.length, false]);
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
