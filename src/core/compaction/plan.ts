/**
 * The compaction plan (pi-session-format.md §7): window, cut, split turn, what is summarized,
 * what is kept, token numbers and file lists, plus the index ranges the UI draws as bands.
 * Pure. `planCompaction` walks the path once (plan-direct.ts); `createPlanner` (planner.ts) keeps an index
 * across appends so re-planning is O(log n).
 */
import type { AgentMessage, CompactionEntry, FileListDetails, SessionEntry } from "../session/types.ts";
import { entryMessage } from "./entry-messages.ts";
import { fileLists, readFileListDetails } from "./file-ops.ts";
import { PathIndex } from "./path-index.ts";
import { planDirect } from "./plan-direct.ts";
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
  /** Lazily materialized (like turnPrefixMessages and fileOps): reading it costs O(summarized entries). */
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
  /** Estimates of the messages to summarize plus the turn prefix (lazy). */
  summarizedTokens: number;
  /** Output budgets of the summary: floor(0.8 × reserve), + floor(0.5 × reserve) when split. */
  summaryBudgetTokens: number;
  /**
   * Upper-bound estimate after compaction: summaryBudgetTokens + keptTokens (the summary is
   * never longer than its output budget; the file-list blocks are ignored).
   */
  tokensAfterEstimate: number;
  /** Lazy. */
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

/** The summarizable messages (context-producing, not compaction) of path[start, end). */
export function materialize(entries: readonly SessionEntry[], start: number, end: number): PlanMessages {
  const messages: AgentMessage[] = [];
  const entryIds: string[] = [];
  for (let i = start; i < end; i++) {
    const e = entries[i]!;
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

/** §7 file lists: tool calls in [windowStart, firstKept) plus the previous compaction's default details. */
function planFileOps(index: PathIndex, ws: number, firstKept: number): FileListDetails {
  const ops = index.fileOpsBetween(ws, firstKept);
  const read = new Set(ops.read);
  const modified = new Set(ops.modified);
  const prev = index.latestCompaction();
  if (prev && prev.fromHook !== true) {
    const d = readFileListDetails(prev.details);
    if (d) {
      for (const p of d.readFiles) read.add(p);
      for (const p of d.modifiedFiles) modified.add(p);
    }
  }
  return fileLists(read, modified);
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

type PlanFailure = Extract<PlanResult, { ok: false }>;

/** "empty" / "last-is-compaction", or undefined when the path can be planned. */
export function checkPath(entries: readonly SessionEntry[]): PlanFailure | undefined {
  if (entries.length === 0)
    return { ok: false, code: "empty", reason: "The session is empty: nothing to compact." };
  if (entries[entries.length - 1]!.type === "compaction")
    return {
      ok: false,
      code: "last-is-compaction",
      reason: "Already compacted: the last entry is a compaction.",
    };
  return undefined;
}

/** "invalid-cut" for a person's chosen cut at path index `at` (-1: not on the path), else undefined. */
export function checkChosenCut(
  id: string,
  at: number,
  windowStart: number,
  isCutPoint: boolean,
): PlanFailure | undefined {
  if (at < 0) return { ok: false, code: "invalid-cut", reason: `Entry ${id} is not on the current path.` };
  if (at < windowStart)
    return {
      ok: false,
      code: "invalid-cut",
      reason: "That entry is already outside the context (before an earlier compaction's kept range).",
    };
  if (!isCutPoint)
    return {
      ok: false,
      code: "invalid-cut",
      reason:
        "Not a valid cut point: a tool result stays with its call; only messages, summaries and custom messages can start the kept range.",
    };
  return undefined;
}

/** Plans on an index (the shared core of planCompaction and the incremental planner). */
export function planOnIndex(index: PathIndex, settings: PlanSettings, options: PlanOptions = {}): PlanResult {
  const end = index.length;
  const pathProblem = checkPath(index.entries);
  if (pathProblem) return pathProblem;
  const ws = Math.min(index.windowStart(), end);
  let cut: CutResult;
  if (options.cutEntryId !== undefined) {
    const at = index.indexOfId(options.cutEntryId) ?? -1;
    const cutProblem = checkChosenCut(options.cutEntryId, at, ws, at >= 0 && index.nextCutPoint(at) === at);
    if (cutProblem) return cutProblem;
    cut = splitAt(index, stepBack(index, at, ws), ws);
  } else {
    cut = findCut(index, ws, settings.keepRecentTokens);
  }
  const firstKept = Math.min(cut.firstKeptIndex, end - 1);
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : firstKept;
  const context = contextTokensOf(index);
  const core: PlanCore = {
    end,
    windowStart: ws,
    firstKept,
    isSplitTurn: cut.isSplitTurn,
    turnStart: cut.isSplitTurn ? cut.turnStartIndex : -1,
    summarizeCount: index.sumCount[historyEnd]! - index.sumCount[ws]!,
    turnPrefixCount: cut.isSplitTurn ? index.sumCount[firstKept]! - index.sumCount[historyEnd]! : 0,
    previousCompactionIndex: index.lastCompaction,
    tokensBefore: context.tokens,
    tokensBeforeSource: context.source,
    keptTokens: index.ctxCum[end]! - index.ctxCum[firstKept]!,
    keptMessageTokens: index.msgCum[end]! - index.msgCum[firstKept]!,
  };
  return assemblePlan(index.entries, core, settings, index.estimator.id, {
    summarizedTokens: () => index.sumCum[firstKept]! - index.sumCum[ws]!,
    fileOps: () => planFileOps(index, ws, firstKept),
  });
}

/** The numbers both planners compute (the index planner and the one-shot planner). */
export interface PlanCore {
  end: number;
  windowStart: number;
  firstKept: number;
  isSplitTurn: boolean;
  turnStart: number;
  summarizeCount: number;
  turnPrefixCount: number;
  previousCompactionIndex: number;
  tokensBefore: number;
  tokensBeforeSource: "reported" | "estimated";
  keptTokens: number;
  keptMessageTokens: number;
}

/** Builds the plan object (same keys in the same order for both planners) and the result. */
export function assemblePlan(
  entries: readonly SessionEntry[],
  core: PlanCore,
  settings: PlanSettings,
  estimatorId: string,
  lazies: { summarizedTokens: () => number; fileOps: () => FileListDetails },
): PlanResult {
  const { end, windowStart: ws, firstKept, isSplitTurn } = core;
  const historyEnd = isSplitTurn ? core.turnStart : firstKept;
  const prev =
    core.previousCompactionIndex >= 0
      ? (entries[core.previousCompactionIndex] as CompactionEntry)
      : undefined;
  const summaryBudgetTokens =
    Math.floor(0.8 * settings.reserveTokens) + (isSplitTurn ? Math.floor(0.5 * settings.reserveTokens) : 0);
  const plan: CompactionPlan = {
    pathLength: end,
    windowStart: ws,
    firstKeptEntryId: entries[firstKept]!.id,
    firstKeptIndex: firstKept,
    isSplitTurn,
    turnStartIndex: isSplitTurn ? core.turnStart : -1,
    messagesToSummarize: { messages: [], entryIds: [] },
    turnPrefixMessages: { messages: [], entryIds: [] },
    summarizeCount: core.summarizeCount,
    turnPrefixCount: core.turnPrefixCount,
    previousSummary: prev ? (typeof prev.summary === "string" ? prev.summary : "") : undefined,
    previousCompactionIndex: core.previousCompactionIndex,
    tokensBefore: core.tokensBefore,
    tokensBeforeSource: core.tokensBeforeSource,
    keptTokens: core.keptTokens,
    keptMessageTokens: core.keptMessageTokens,
    summarizedTokens: 0,
    summaryBudgetTokens,
    tokensAfterEstimate: summaryBudgetTokens + core.keptTokens,
    fileOps: { readFiles: [], modifiedFiles: [] },
    bands: {
      outside: { start: 0, end: ws },
      summarized: { start: ws, end: historyEnd },
      prefix: isSplitTurn ? { start: historyEnd, end: firstKept } : null,
      kept: { start: firstKept, end },
    },
    settings: { keepRecentTokens: settings.keepRecentTokens, reserveTokens: settings.reserveTokens },
    estimatorId,
  };
  // Lazy fields (redefined in place, so the key order stays the same).
  lazy(plan, "messagesToSummarize", () => materialize(entries, ws, historyEnd));
  lazy(plan, "turnPrefixMessages", () =>
    isSplitTurn ? materialize(entries, historyEnd, firstKept) : { messages: [], entryIds: [] },
  );
  lazy(plan, "summarizedTokens", lazies.summarizedTokens);
  lazy(plan, "fileOps", lazies.fileOps);
  if (core.summarizeCount === 0 && core.turnPrefixCount === 0)
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
  const index = new PathIndex(estimator, path.length);
  for (const e of path) index.append(e);
  return index;
}

/**
 * Plans a compaction of the path (root first) ending at the leaf. One-shot: direct walks over the
 * path (plan-direct.ts). For repeated planning on a growing path use createPlanner (planner.ts).
 */
export function planCompaction(
  path: readonly SessionEntry[],
  settings: PlanSettings,
  options: PlanOptions = {},
): PlanResult {
  return planDirect(path, settings, options);
}
