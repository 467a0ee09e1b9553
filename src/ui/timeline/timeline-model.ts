/**
 * The data behind the timeline: the current path, each entry's estimated tokens (pi's chars/4,
 * from the compaction engine), running totals, labels, and what is outside the context
 * (entries before the last compaction's kept range). Pure; linear in the number of entries.
 */
import { entryMessage } from "../../core/compaction/entry-messages.ts";
import { PI_ESTIMATOR } from "../../core/compaction/tokens.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { sessionPath, siblingsOf, treeData } from "../tree/tree-model.ts";

export interface TimelineModel {
  path: SessionEntry[];
  /** Estimated tokens of each path entry (0 for entries that produce no message). */
  tokens: Float64Array;
  /** Running total of `tokens` up to and including each path entry. */
  totals: Float64Array;
  /** Index on the path of each entry id. */
  indexById: Map<string, number>;
  labels: Map<string, string>;
  /** Path entries that have siblings (their row shows the branch switcher). */
  forks: Set<string>;
  /** Path index of the last compaction, or -1. */
  lastCompaction: number;
  /** Path entries before this index are not in the model's context (0 when all are). */
  firstInContext: number;
  leafId: string | null;
}

/** Estimated tokens of one entry, as the compaction engine counts them (its cache, shared with the planner). */
export function entryTokens(entry: SessionEntry): number {
  const message = entryMessage(entry);
  return message ? PI_ESTIMATOR.estimateMessage(message) : 0;
}

export function buildTimelineModel(entries: readonly SessionEntry[]): TimelineModel {
  // Shared, incrementally maintained index and path (a leaf move appends one entry).
  const data = treeData(entries);
  const leafId = data.leafId;
  const path = sessionPath(entries);
  const n = path.length;
  const tokens = new Float64Array(n);
  const totals = new Float64Array(n);
  const indexById = new Map<string, number>();
  const forks = new Set<string>();
  let sum = 0;
  let lastCompaction = -1;
  for (let i = 0; i < n; i++) {
    const entry = path[i]!;
    indexById.set(entry.id, i);
    if (siblingsOf(data, entry).length > 1) forks.add(entry.id);
    const t = entryTokens(entry);
    tokens[i] = t;
    sum += t;
    totals[i] = sum;
    if (entry.type === "compaction") lastCompaction = i;
  }
  let firstInContext = 0;
  if (lastCompaction >= 0) {
    const kept = (path[lastCompaction] as { firstKeptEntryId?: unknown }).firstKeptEntryId;
    const keptIndex = typeof kept === "string" ? indexById.get(kept) : undefined;
    // A kept id that is not on the path keeps nothing before the compaction.
    firstInContext = keptIndex !== undefined && keptIndex < lastCompaction ? keptIndex : lastCompaction;
  }
  return {
    path,
    tokens,
    totals,
    indexById,
    labels: data.labels,
    forks,
    lastCompaction,
    firstInContext,
    leafId,
  };
}
