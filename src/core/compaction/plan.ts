/**
 * The compaction plan (docs/session-format.md §10): window, cut, split turn, what is summarized,
 * what is kept, token numbers and file lists, plus the index ranges the UI draws as bands. Pure,
 * on a PathIndex (pi 1.6's projection); `createPlanner` (planner.ts) keeps the index across
 * appends so re-planning is O(log n).
 */
import type { AgentMessage, FileListDetails, SessionEntry, SystemMessage } from "../session/types.ts";
import { type CutResult, findCut, isCutPointAt, splitAt, stepBack } from "./cut.ts";
import { fileLists, readFileListDetails } from "./file-ops.ts";
import { ABSENT, PathIndex } from "./path-index.ts";
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
  /** Context size of the whole current context (§9 rule, stale usage before the latest compaction ignored). */
  tokensBefore: number;
  tokensBeforeSource: "reported" | "estimated";
  /** Estimates of what the model sees from the first kept entry to the end (the cut rule's sum). */
  keptTokens: number;
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
  /** Lazy: the replayed prompt and tools of the context, which the compaction entry checkpoints. */
  systemMessage: SystemMessage | undefined;
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

/** The summarizable messages (projected, not system, not from a compaction) of path[start, end). */
export function materialize(index: PathIndex, start: number, end: number): PlanMessages {
  const messages: AgentMessage[] = [];
  const entryIds: string[] = [];
  for (let i = start; i < end; i++) {
    const e = index.entries[i]!;
    if (e.type === "compaction" || index.flags[i]! & ABSENT) continue;
    for (const m of index.messagesAt(i)) {
      if (m.role === "system") continue;
      messages.push(m);
      entryIds.push(e.id);
    }
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

/** §10 file lists: tool calls in [windowStart, firstKept) plus the previous compaction's default details. */
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

/**
 * Context size of the whole current context (§9) from the index: the last usable provider usage
 * plus estimates of what follows it, unless a compaction or a context edit came after that reply
 * (its usage describes another context); then the estimate of everything the model sees, the
 * replayed system prompt counted once.
 */
/**
 * The context size as pi 1.6 counts it. When it is estimated because a compaction or a context
 * edit came after the last reply with usage (pi's rule sets that usage aside), `setAside` is
 * that reply's count: what the provider last reported, which no longer applies.
 */
export interface ContextSize {
  tokens: number;
  source: "reported" | "estimated";
  setAside?: number;
}

export function contextTokensOf(index: PathIndex): ContextSize {
  const end = index.length;
  if (end === 0) return { tokens: 0, source: "estimated" };
  index.ensure();
  const u = index.lastUsage[end - 1]!;
  const replyUsage = () => {
    const reply = index.messagesAt(u).find((m) => m.role === "assistant") as { usage?: never } | undefined;
    return usageTokens(reply?.usage);
  };
  if (u >= 0 && u > index.lastInvalidating()) {
    return {
      tokens: replyUsage() + index.winCum[end]! - index.winCum[u + 1]!,
      source: "reported",
    };
  }
  const ws = Math.min(index.windowStart(), end);
  const body = index.nonSysCum[end]! - index.nonSysCum[ws]!;
  return {
    tokens: index.systemReplayTokens() + index.compactionSummaryTokens() + body,
    source: "estimated",
    ...(u >= 0 ? { setAside: replyUsage() } : {}),
  };
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

/** Plans on an index (pi 1.6's prepareCompaction, plus the numbers and bands the UI draws). */
export function planOnIndex(index: PathIndex, settings: PlanSettings, options: PlanOptions = {}): PlanResult {
  const end = index.length;
  const pathProblem = checkPath(index.entries);
  if (pathProblem) return pathProblem;
  index.ensure();
  const ws = Math.min(index.windowStart(), end);
  let cut: CutResult | undefined;
  if (options.cutEntryId !== undefined) {
    const at = index.indexOfId(options.cutEntryId) ?? -1;
    const cutProblem = checkChosenCut(options.cutEntryId, at, ws, isCutPointAt(index, at));
    if (cutProblem) return cutProblem;
    cut = splitAt(index, stepBack(index, at, ws), ws);
  } else {
    cut = findCut(index, ws, settings.keepRecentTokens);
  }
  if (!cut)
    return {
      ok: false,
      code: "nothing-to-summarize",
      reason: "Nothing to summarize: the context holds nothing since the last compaction.",
    };
  const firstKept = cut.firstKeptIndex;
  const turnStart = cut.isSplitTurn ? cut.turnStartIndex : -1;
  const historyEnd = cut.isSplitTurn ? turnStart : firstKept;
  const context = contextTokensOf(index);
  const prev = index.latestCompaction();
  const summaryBudgetTokens =
    Math.floor(0.8 * settings.reserveTokens) +
    (cut.isSplitTurn ? Math.floor(0.5 * settings.reserveTokens) : 0);
  const keptTokens = index.winCum[end]! - index.winCum[firstKept]!;
  const plan: CompactionPlan = {
    pathLength: end,
    windowStart: ws,
    firstKeptEntryId: index.entries[firstKept]!.id,
    firstKeptIndex: firstKept,
    isSplitTurn: cut.isSplitTurn,
    turnStartIndex: turnStart,
    messagesToSummarize: { messages: [], entryIds: [] },
    turnPrefixMessages: { messages: [], entryIds: [] },
    summarizeCount: index.sumCount[historyEnd]! - index.sumCount[ws]!,
    turnPrefixCount: cut.isSplitTurn ? index.sumCount[firstKept]! - index.sumCount[historyEnd]! : 0,
    previousSummary: prev ? (typeof prev.summary === "string" ? prev.summary : "") : undefined,
    previousCompactionIndex: index.lastCompaction,
    tokensBefore: context.tokens,
    tokensBeforeSource: context.source,
    keptTokens,
    summarizedTokens: 0,
    summaryBudgetTokens,
    tokensAfterEstimate: summaryBudgetTokens + keptTokens,
    fileOps: { readFiles: [], modifiedFiles: [] },
    systemMessage: undefined,
    bands: {
      outside: { start: 0, end: ws },
      summarized: { start: ws, end: historyEnd },
      prefix: cut.isSplitTurn ? { start: historyEnd, end: firstKept } : null,
      kept: { start: firstKept, end },
    },
    settings: { keepRecentTokens: settings.keepRecentTokens, reserveTokens: settings.reserveTokens },
    estimatorId: index.estimator.id,
  };
  // Lazy fields (redefined in place, so the key order stays the same).
  lazy(plan, "messagesToSummarize", () => materialize(index, ws, historyEnd));
  lazy(plan, "turnPrefixMessages", () =>
    cut.isSplitTurn ? materialize(index, historyEnd, firstKept) : { messages: [], entryIds: [] },
  );
  lazy(plan, "summarizedTokens", () => index.sumCum[firstKept]! - index.sumCum[ws]!);
  lazy(plan, "fileOps", () => planFileOps(index, ws, firstKept));
  lazy(plan, "systemMessage", () => index.systemReplay());
  if (plan.summarizeCount === 0 && plan.turnPrefixCount === 0)
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
 * Plans a compaction of the path (root first) ending at the leaf. For repeated planning on a
 * growing path use createPlanner (planner.ts), which keeps the index.
 */
export function planCompaction(
  path: readonly SessionEntry[],
  settings: PlanSettings,
  options: PlanOptions = {},
): PlanResult {
  return planOnIndex(indexPath(path, options.estimator), settings, options);
}
