/**
 * The data behind the timeline: the current path (without position markers: a move is no
 * row), what each entry puts in the model's context
 * (pi 1.6's projection: context edits applied, the latest compaction's checkpoint and summary,
 * its kept range without system messages), its estimated tokens (pi's chars/4) and running
 * totals of what the model sees, the edits per target, labels. Pure; linear in the path length.
 */

import { entryMessage, isContextEntry } from "../../core/compaction/entry-messages.ts";
import { PI_ESTIMATOR } from "../../core/compaction/tokens.ts";
import {
  entryMessages,
  isSystemMessageEntry,
  keptStartIndex,
  latestCompactionIndex,
  latestEdits,
  projectEntry,
  uncachedMessages,
} from "../../core/session/projection.ts";
import { entriesWithSiblings } from "../../core/session/session-tree.ts";
import type { AgentMessage, ContextEditEntry, SessionEntry } from "../../core/session/types.ts";
import { weakCache } from "../../core/session/weak-cache.ts";
import { shownPath, treeData } from "../tree/tree-model.ts";

export interface TimelineModel {
  path: SessionEntry[];
  /** Estimated tokens of what each path entry puts in the context (its own size when it is outside). */
  tokens: Float64Array;
  /** Running total of what the model sees, up to and including each path entry. */
  totals: Float64Array;
  /**
   * 0 when the entry holds something for the model that it does not see now (before the kept
   * range, omitted by an edit, an older compaction, a kept system message folded into the
   * checkpoint); 1 otherwise (settings and other entries without content stay 1).
   */
  inContext: Uint8Array;
  /** The latest context edit of each edited entry on the path (target id -> edit). */
  edits: Map<string, ContextEditEntry>;
  /** Index on the path of each entry id. */
  indexById: Map<string, number>;
  labels: Map<string, string>;
  /** Path entries that have siblings (their row shows the branch switcher). */
  forks: Set<string>;
  /** Path index of the last compaction, or -1. */
  lastCompaction: number;
  /** Path entries before this index are not in the model's context (0 when all are). */
  firstInContext: number;
  /** The current position (the leaf, or the entry a move at the leaf moved to). */
  leafId: string | null;
}

/** Estimated tokens of one entry as stored, as the compaction engine counts them. */
export function entryTokens(entry: SessionEntry): number {
  const message = entryMessage(entry);
  return message ? PI_ESTIMATOR.estimateMessage(message) : 0;
}

const sum = (messages: readonly AgentMessage[]) => {
  let n = 0;
  for (const m of messages) n += PI_ESTIMATOR.estimateMessage(m);
  return n;
};

const models = weakCache<readonly SessionEntry[], TimelineModel>();
const builders = weakCache<readonly SessionEntry[], TimelineBuilder>();

/** The timeline model of an entries array, built once (the session view and its warm-up share it). */
export function timelineModel(entries: readonly SessionEntry[]): TimelineModel {
  let model = models.get(entries);
  if (!model) {
    // Finishes a build the warm-up started (or builds it all).
    const builder = builders.get(entries) ?? createTimelineBuilder(entries);
    builders.delete(entries);
    while (!builder.step(Number.POSITIVE_INFINITY));
    model = builder.model;
    models.set(entries, model);
  }
  return model;
}

/**
 * Builds the timeline model of `entries` ahead, in slices of about `sliceMs`, awaiting `pause`
 * between them. The result is what `timelineModel(entries)` returns (which finishes the build at
 * once if it is asked for before).
 */
export async function warmTimelineModel(
  entries: readonly SessionEntry[],
  sliceMs: number,
  pause: () => Promise<void>,
): Promise<void> {
  if (models.has(entries)) return;
  let builder = builders.get(entries);
  if (!builder) {
    builder = createTimelineBuilder(entries);
    builders.set(entries, builder);
    await pause();
  }
  while (!models.has(entries) && !builder.step(performance.now() + sliceMs)) await pause();
  if (!models.has(entries)) timelineModel(entries);
}

export function buildTimelineModel(entries: readonly SessionEntry[]): TimelineModel {
  const builder = createTimelineBuilder(entries);
  while (!builder.step(Number.POSITIVE_INFINITY));
  return builder.model;
}

/** Entries computed between two looks at the clock. */
const CHECK_EVERY = 512;

interface TimelineBuilder {
  /** Computes entries until the clock passes `deadline` (ms, performance.now()); true when done. */
  step(deadline: number): boolean;
  /** The model: complete once `step` returned true. */
  readonly model: TimelineModel;
}

/** A resumable build of the model (one loop over the path, cut anywhere: the same result). */
function createTimelineBuilder(entries: readonly SessionEntry[]): TimelineBuilder {
  // Shared, incrementally maintained index and path (a leaf move appends one entry).
  const data = treeData(entries);
  const leafId = data.positionId;
  const path = shownPath(data);
  const n = path.length;
  const tokens = new Float64Array(n);
  const totals = new Float64Array(n);
  const inContext = new Uint8Array(n);
  const withSiblings = entriesWithSiblings(data);
  const forks = new Set<string>();
  const lastCompaction = latestCompactionIndex(path);
  const keptStart = keptStartIndex(path, lastCompaction);
  // A kept id that is not on the path keeps nothing before the compaction.
  const firstInContext = lastCompaction < 0 ? 0 : keptStart >= 0 ? keptStart : lastCompaction;
  const edits = latestEdits(lastCompaction < 0 ? path : path.slice(firstInContext));
  let total = 0;
  let i = 0;
  let indexById: Map<string, number> | undefined;
  const model: TimelineModel = {
    path,
    tokens,
    totals,
    inContext,
    edits,
    // Built when first asked for (a jump to a compaction's kept range), not for every open.
    get indexById() {
      if (!indexById) {
        indexById = new Map();
        for (let k = 0; k < n; k++) indexById.set(path[k]!.id, k);
      }
      return indexById;
    },
    labels: data.labels,
    forks,
    lastCompaction,
    firstInContext,
    leafId,
  };
  return {
    model,
    step(deadline) {
      while (i < n) {
        const end = Math.min(n, i + CHECK_EVERY);
        for (; i < end; i++) {
          const entry = path[i]!;
          if (withSiblings.has(entry)) forks.add(entry.id);
          let seen: readonly AgentMessage[] | undefined;
          if (i === lastCompaction) seen = entryMessages(entry);
          else if (entry.type === "compaction") seen = [];
          else if (i >= firstInContext && !(i < lastCompaction && isSystemMessageEntry(entry))) {
            const edit = edits.get(entry.id);
            seen = edit ? projectEntry(entry, edit) : uncachedMessages(entry);
          }
          const t = seen ? sum(seen) : entryTokens(entry);
          tokens[i] = t;
          if (seen && seen.length > 0) total += t;
          inContext[i] = (seen && seen.length > 0) || !isContextEntry(entry) ? 1 : 0;
          totals[i] = total;
        }
        if (i < n && performance.now() >= deadline) return false;
      }
      return true;
    },
  };
}
