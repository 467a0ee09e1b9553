/**
 * The compaction plan (pi-session-format.md §7): window, cut, split turn, what is summarized,
 * what is kept, token numbers and file lists, plus the index ranges the UI draws as bands.
 * Pure. `planCompaction` indexes the path once; `createPlanner` (planner.ts) keeps the index
 * across appends so re-planning is O(log n).
 */
import type { AgentMessage, FileListDetails, SessionEntry } from "../session/types.ts";
import { entryMessage } from "./entry-messages.ts";
import { fileLists, readFileListDetails } from "./file-ops.ts";
import { PathIndex } from "./path-index.ts";
import { type Estimator, usageTokens } from "./tokens.ts";

export interface PlanSettings {
  keepRecentTokens: number;
  reserveTokens: number;
}

export interface PlanOptions {
  /** A person's chosen cut: must be a valid cut point inside the window. */
  cutEntryId?: string;
  estimator?: Estimator;
}

/** Messages plus the ids of the entries they come from (same order). */
export interface PlanMessages {
  messages: AgentMessage[];
  entryIds: string[];
}

/** Half-open index range [start, end) on the path. */
export interface IndexRange {
  start: number;
  end: number;
}

export interface PlanBands {
  /** Before the window: outside the model's context (already summarized earlier). */
  outside: IndexRange;
  /** Summarized as history. */
  summarized: IndexRange;
  /** Split-turn prefix (summarized separately), null when the turn is not split. */
  prefix: IndexRange | null;
  /** Kept verbatim. */
  kept: IndexRange;
}

export interface CompactionPlan {
  pathLength: number;
  windowStart: number;
  firstKeptEntryId: string;
  firstKeptIndex: number;
  isSplitTurn: boolean;
  /** Index of the split turn's start, -1 when not split. */
  turnStartIndex: number;
  /** Lazily materialized: reading it costs O(summarized entries). */
  messagesToSummarize: PlanMessages;
  turnPrefixMessages: PlanMessages;
  summarizeCount: number;
  turnPrefixCount: number;
  previousSummary: string | undefined;
  /** Index of the latest compaction on the path, -1 when none. */
  previousCompactionIndex: number;
  /** Context size of the whole current context (§6 rule, stale usage before the latest compaction ignored). */
  tokensBefore: number;
  tokensBeforeSource: "reported" | "estimated";
  /** Estimates of the kept context entries (from the first kept entry to the end). */
  keptTokens: number;
  /** The cut rule's sum: estimates of `message` entries from the first kept entry to the end. */
  keptMessageTokens: number;
  /** Estimates of the messages to summarize plus the turn prefix. */
  summarizedTokens: number;
  /** Output budgets of the summary: floor(0.8 × reserve), + floor(0.5 × reserve) when split. */
  summaryBudgetTokens: number;
  /**
   * Upper-bound estimate after compaction: summaryBudgetTokens + keptTokens (the summary is
   * never longer than its output budget; the file-list blocks are ignored).
   */
  tokensAfterEstimate: number;
  fileOps: FileListDetails;
  bands: PlanBands;
  settings: PlanSettings;
  estimatorId: string;
}

export type PlanFailureCode = "empty" | "last-is-compaction" | "nothing-to-summarize" | "invalid-cut";

export type PlanResult =
  | { ok: true; plan: CompactionPlan }
  | {
      ok: false;
      code: PlanFailureCode;
      reason: string;
      /** Present for "nothing-to-summarize": the cut that was found (everything kept). */
      plan?: CompactionPlan;
    };

/** The cut of §7 inside [windowStart, end): first kept index, split turn and turn start. */
export interface CutResult {
  firstKeptIndex: number;
  turnStartIndex: number;
  isSplitTurn: boolean;
}

/** §7: step back over non-message entries directly before `cut` (stop at message, compaction, window start). */
export function stepBack(index: PathIndex, cut: number, windowStart: number): number {
  if (cut <= windowStart) return cut;
  const stop = index.lastStop[cut - 1]!;
  return Math.max(windowStart, stop + 1);
}

/** §7 split-turn rule for a first kept index. */
export function splitAt(index: PathIndex, firstKept: number, windowStart: number): CutResult {
  const entry = index.entries[firstKept];
  const isUser =
    entry?.type === "message" && (entry as { message?: { role?: unknown } }).message?.role === "user";
  if (isUser) return { firstKeptIndex: firstKept, turnStartIndex: -1, isSplitTurn: false };
  const t = index.lastTurnStart[firstKept] ?? -1;
  const turnStart = t >= windowStart ? t : -1;
  return { firstKeptIndex: firstKept, turnStartIndex: turnStart, isSplitTurn: turnStart !== -1 };
}

/** §7 automatic cut. */
export function findCut(index: PathIndex, windowStart: number, keepRecentTokens: number): CutResult {
  const firstCut = index.nextCutPoint(windowStart);
  if (firstCut < 0) return { firstKeptIndex: windowStart, turnStartIndex: -1, isSplitTurn: false };
  let cut = firstCut;
  const at = index.thresholdEntry(windowStart, keepRecentTokens);
  if (at >= 0) {
    const next = index.nextCutPoint(at);
    // pi keeps its initial choice (the first cut point) when no cut point follows the entry.
    if (next >= 0) cut = next;
  }
  return splitAt(index, stepBack(index, cut, windowStart), windowStart);
}

function materialize(index: PathIndex, start: number, end: number): PlanMessages {
  const messages: AgentMessage[] = [];
  const entryIds: string[] = [];
  for (let i = start; i < end; i++) {
    const e = index.entries[i]!;
    if (e.type === "compaction") continue;
    const m = entryMessage(e);
    if (!m) continue;
    messages.push(m);
    entryIds.push(e.id);
  }
  return { messages, entryIds };
}

function lazy<T extends object, K extends keyof T>(target: T, key: K, make: () => T[K]): void {
  let value: T[K] | undefined;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      value ??= make();
      return value;
    },
  });
}

/** Context size of the whole current context (§5, §6) from the index: see CompactionPlan.tokensBefore. */
export function contextTokensOf(index: PathIndex): { tokens: number; source: "reported" | "estimated" } {
  const end = index.length;
  if (end === 0) return { tokens: 0, source: "estimated" };
  const lc = index.lastCompaction;
  const u = index.lastUsage[end - 1]!;
  // Stale-usage guard (§6): a usage from before the latest compaction describes the old context.
  if (u >= 0 && u > lc) {
    const e = index.entries[u]!;
    const reported = usageTokens((entryMessage(e) as { usage?: never }).usage);
    return { tokens: reported + index.ctxCum[end]! - index.ctxCum[u + 1]!, source: "reported" };
  }
  const ws = index.windowStart();
  const summary = lc >= 0 && lc < ws ? index.ctxEst[lc]! : 0;
  return { tokens: summary + index.ctxCum[end]! - index.ctxCum[Math.min(ws, end)]!, source: "estimated" };
}

/** Plans on an index (the shared core of planCompaction and the incremental planner). */
export function planOnIndex(index: PathIndex, settings: PlanSettings, options: PlanOptions = {}): PlanResult {
  const end = index.length;
  if (end === 0) return { ok: false, code: "empty", reason: "The session is empty: nothing to compact." };
  const last = index.entries[end - 1]!;
  if (last.type === "compaction")
    return {
      ok: false,
      code: "last-is-compaction",
      reason: "Already compacted: the last entry is a compaction.",
    };
  const ws = Math.min(index.windowStart(), end);
  let cut: CutResult;
  if (options.cutEntryId !== undefined) {
    const at = index.idIndex.get(options.cutEntryId);
    if (at === undefined)
      return {
        ok: false,
        code: "invalid-cut",
        reason: `Entry ${options.cutEntryId} is not on the current path.`,
      };
    if (at < ws)
      return {
        ok: false,
        code: "invalid-cut",
        reason: "That entry is already outside the context (before an earlier compaction's kept range).",
      };
    if (index.nextCutPoint(at) !== at)
      return {
        ok: false,
        code: "invalid-cut",
        reason:
          "Not a valid cut point: a tool result stays with its call; only messages, summaries and custom messages can start the kept range.",
      };
    cut = splitAt(index, stepBack(index, at, ws), ws);
  } else {
    cut = findCut(index, ws, settings.keepRecentTokens);
  }
  const firstKept = Math.min(cut.firstKeptIndex, end - 1);
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : firstKept;
  const prev = index.latestCompaction();
  const context = contextTokensOf(index);
  const keptTokens = index.ctxCum[end]! - index.ctxCum[firstKept]!;
  const summaryBudgetTokens =
    Math.floor(0.8 * settings.reserveTokens) +
    (cut.isSplitTurn ? Math.floor(0.5 * settings.reserveTokens) : 0);
  const ops = index.fileOpsBetween(ws, firstKept);
  const read = new Set(ops.read);
  const modified = new Set(ops.modified);
  if (prev && prev.fromHook !== true) {
    const d = readFileListDetails(prev.details);
    if (d) {
      for (const p of d.readFiles) read.add(p);
      for (const p of d.modifiedFiles) modified.add(p);
    }
  }
  const summarizeCount = index.sumCount[historyEnd]! - index.sumCount[ws]!;
  const turnPrefixCount = cut.isSplitTurn ? index.sumCount[firstKept]! - index.sumCount[historyEnd]! : 0;
  const plan = {
    pathLength: end,
    windowStart: ws,
    firstKeptEntryId: index.entries[firstKept]!.id,
    firstKeptIndex: firstKept,
    isSplitTurn: cut.isSplitTurn,
    turnStartIndex: cut.isSplitTurn ? cut.turnStartIndex : -1,
    summarizeCount,
    turnPrefixCount,
    previousSummary: prev ? (typeof prev.summary === "string" ? prev.summary : "") : undefined,
    previousCompactionIndex: index.lastCompaction,
    tokensBefore: context.tokens,
    tokensBeforeSource: context.source,
    keptTokens,
    keptMessageTokens: index.msgCum[end]! - index.msgCum[firstKept]!,
    summarizedTokens: index.sumCum[firstKept]! - index.sumCum[ws]!,
    summaryBudgetTokens,
    tokensAfterEstimate: summaryBudgetTokens + keptTokens,
    fileOps: fileLists(read, modified),
    bands: {
      outside: { start: 0, end: ws },
      summarized: { start: ws, end: historyEnd },
      prefix: cut.isSplitTurn ? { start: historyEnd, end: firstKept } : null,
      kept: { start: firstKept, end },
    },
    settings: { keepRecentTokens: settings.keepRecentTokens, reserveTokens: settings.reserveTokens },
    estimatorId: index.estimator.id,
  } as CompactionPlan;
  lazy(plan, "messagesToSummarize", () => materialize(index, ws, historyEnd));
  lazy(plan, "turnPrefixMessages", () =>
    cut.isSplitTurn ? materialize(index, historyEnd, firstKept) : { messages: [], entryIds: [] },
  );
  if (summarizeCount === 0 && turnPrefixCount === 0)
    return {
      ok: false,
      code: "nothing-to-summarize",
      reason: "Nothing to summarize: everything in the context would be kept.",
      plan,
    };
  return { ok: true, plan };
}

/** Builds an index over the path (estimates cached per message object). */
export function indexPath(path: readonly SessionEntry[], estimator?: Estimator): PathIndex {
  const index = new PathIndex(estimator);
  for (const e of path) index.append(e);
  return index;
}

/** Plans a compaction of the path (root first) ending at the leaf. */
export function planCompaction(
  path: readonly SessionEntry[],
  settings: PlanSettings,
  options: PlanOptions = {},
): PlanResult {
  return planOnIndex(indexPath(path, options.estimator), settings, options);
}
