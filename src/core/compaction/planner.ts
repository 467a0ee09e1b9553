/**
 * Incremental planner for the UI, which re-plans on every keystroke and every streamed entry.
 * It keeps a PathIndex across calls: `setPath` recognises in O(1) a path that extends or
 * shortens the previous one (a path is determined by its last entry, so if the entry at the
 * shorter length is the same, by object or by id, the prefix is unchanged) and only indexes the
 * difference; any other path is re-indexed. Entries are treated as immutable, except that a last
 * entry re-read as a new object with the same id is re-estimated.
 */
import type { SessionEntry } from "../session/types.ts";
import { type CutPointInfo, listCutPointsOnIndex } from "./cut-points.ts";
import { PathIndex } from "./path-index.ts";
import {
  type ContextSize,
  contextTokensOf,
  type PlanOptions,
  type PlanResult,
  type PlanSettings,
  planOnIndex,
} from "./plan.ts";
import { type Estimator, PI_ESTIMATOR } from "./tokens.ts";

export interface Planner {
  readonly estimator: Estimator;
  /** Number of entries indexed. */
  readonly length: number;
  /** Sets the current path (root first). Appends when it extends the previous one, else rebuilds. */
  setPath(path: readonly SessionEntry[]): void;
  /** Appends one entry (a child of the current leaf). */
  append(entry: SessionEntry): void;
  /**
   * Computes up to `maxEntries` more of the index's lazy per-entry values (what the first plan or
   * query computes at once), to spread that over several tasks; true when all are computed.
   * Changes no result.
   */
  prepare(maxEntries: number): boolean;
  plan(settings: PlanSettings, options?: Omit<PlanOptions, "estimator">): PlanResult;
  listCutPoints(): CutPointInfo[];
  /** Context size of the current context (§9; stale usage before the latest compaction ignored). */
  contextTokens(): ContextSize;
  /** Token estimate of what the entry at a path index puts in the context (0 when nothing). */
  entryTokens(index: number): number;
  /**
   * Running total of the context up to and including the entry at a path index: the latest
   * compaction's checkpoint and summary, then the window in path order (0 before the window).
   */
  runningTokens(index: number): number;
}

export function createPlanner(options: { estimator?: Estimator } = {}): Planner {
  const estimator = options.estimator ?? PI_ESTIMATOR;
  let index = new PathIndex(estimator);
  return {
    estimator,
    get length() {
      return index.length;
    },
    setPath(path) {
      const n = index.length;
      // The longest indexed prefix the new path shares, judged at one position: a path is
      // determined by its last entry (same object, or same id: entries re-read from storage are
      // new objects; ids are unique and entries immutable).
      const m = Math.min(n, path.length);
      const same = (i: number) => path[i] === index.entries[i] || path[i]?.id === index.entries[i]?.id;
      if (m > 0 && same(m - 1)) {
        // A replaced last entry (same id, new object, e.g. re-read) is re-indexed, as is anything after it.
        const k = path[m - 1] === index.entries[m - 1] ? m : m - 1;
        index.truncate(k);
        for (let i = k; i < path.length; i++) index.append(path[i]!);
        return;
      }
      index = new PathIndex(estimator, path.length + 1024);
      for (const e of path) index.append(e);
    },
    append(entry) {
      index.append(entry);
    },
    prepare(maxEntries) {
      return index.ensureSome(maxEntries);
    },
    plan(settings, planOptions = {}) {
      return planOnIndex(index, settings, planOptions);
    },
    listCutPoints() {
      return listCutPointsOnIndex(index);
    },
    contextTokens() {
      return contextTokensOf(index);
    },
    entryTokens(i) {
      if (i < 0 || i >= index.length) return 0;
      index.ensure();
      return i === index.lastCompaction ? index.compactionTokens() : index.est[i]!;
    },
    runningTokens(i) {
      if (i < 0) return 0;
      index.ensure();
      const ws = index.windowStart();
      if (i < ws) return 0;
      const head = index.lastCompaction >= 0 ? index.compactionTokens() : 0;
      return head + index.winCum[Math.min(i + 1, index.length)]! - index.winCum[ws]!;
    },
  };
}
