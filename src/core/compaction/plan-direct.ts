/**
 * The one-shot planner behind `planCompaction`: the rules of §7 as direct walks over the path,
 * like pi does, so that a single plan estimates only the kept part and the messages after the
 * last reported usage; everything else is a cheap scan of entry types. The summarized-token sum,
 * the file lists and the message lists are computed lazily, on first read.
 * The incremental planner (planner.ts, on a PathIndex) must give the same plans: the property
 * tests compare the two on generated sessions and the fixture tests run both on pi's plans.
 */
import type { CompactionEntry, SessionEntry } from "../session/types.ts";
import { entryMessage, isTurnStart, isValidCutPoint, messageRole } from "./entry-messages.ts";
import { FileOpSet } from "./file-ops.ts";
import {
  assemblePlan,
  type CutResult,
  checkChosenCut,
  checkPath,
  type PlanCore,
  type PlanOptions,
  type PlanResult,
  type PlanSettings,
} from "./plan.ts";
import { type Estimator, hasContextUsage, PI_ESTIMATOR, usageTokens } from "./tokens.ts";

function estimateEntry(entry: SessionEntry, estimator: Estimator): number {
  const m = entryMessage(entry);
  return m ? estimator.estimateMessage(m) : 0;
}

/** §7 window start (see PathIndex.windowStart). */
function windowStartOf(path: readonly SessionEntry[], lc: number): number {
  if (lc < 0) return 0;
  const id = (path[lc] as CompactionEntry).firstKeptEntryId;
  if (typeof id === "string") {
    for (let i = 0; i < path.length; i++) if (path[i]!.id === id) return i;
  }
  return lc + 1;
}

function nextCutPoint(path: readonly SessionEntry[], from: number): number {
  for (let i = from; i < path.length; i++) if (isValidCutPoint(path[i]!)) return i;
  return -1;
}

function stepBack(path: readonly SessionEntry[], cut: number, ws: number): number {
  let c = cut;
  while (c > ws) {
    const t = path[c - 1]!.type;
    if (t === "message" || t === "compaction") break;
    c--;
  }
  return c;
}

function splitAt(path: readonly SessionEntry[], firstKept: number, ws: number): CutResult {
  if (messageRole(path[firstKept]!) === "user")
    return { firstKeptIndex: firstKept, turnStartIndex: -1, isSplitTurn: false };
  for (let i = firstKept; i >= ws; i--) {
    if (isTurnStart(path[i]!)) return { firstKeptIndex: firstKept, turnStartIndex: i, isSplitTurn: true };
  }
  return { firstKeptIndex: firstKept, turnStartIndex: -1, isSplitTurn: false };
}

/** The walk of §7 from the newest entry: cut at the first valid cut point at or after the entry reaching `keep`. */
function findCut(path: readonly SessionEntry[], ws: number, keep: number, estimator: Estimator): CutResult {
  const firstCut = nextCutPoint(path, ws);
  if (firstCut < 0) return { firstKeptIndex: ws, turnStartIndex: -1, isSplitTurn: false };
  let cut = firstCut;
  let sum = 0;
  for (let i = path.length - 1; i >= ws; i--) {
    const e = path[i]!;
    if (e.type !== "message") continue;
    sum += estimateEntry(e, estimator);
    if (sum >= keep) {
      const next = nextCutPoint(path, i);
      // pi keeps its initial choice (the first cut point) when no cut point follows the entry.
      if (next >= 0) cut = next;
      break;
    }
  }
  return splitAt(path, stepBack(path, cut, ws), ws);
}

/** Context size of the whole current context (see contextTokensOf in plan.ts). */
function contextTokens(
  path: readonly SessionEntry[],
  lc: number,
  ws: number,
  estimator: Estimator,
): { tokens: number; source: "reported" | "estimated" } {
  let trailing = 0;
  for (let i = path.length - 1; i > lc; i--) {
    const e = path[i]!;
    const m = entryMessage(e);
    if (!m) continue;
    if (e.type === "message" && hasContextUsage(m))
      return { tokens: usageTokens(m.usage) + trailing, source: "reported" };
    trailing += estimator.estimateMessage(m);
  }
  // No usable usage after the latest compaction (stale-usage guard): estimate the whole context.
  let tokens = lc >= 0 && lc < ws ? estimateEntry(path[lc]!, estimator) : 0;
  for (let i = ws; i < path.length; i++) tokens += estimateEntry(path[i]!, estimator);
  return { tokens, source: "estimated" };
}

function countSummarizable(path: readonly SessionEntry[], start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const e = path[i]!;
    if (e.type !== "compaction" && entryMessage(e) !== undefined) n++;
  }
  return n;
}

/** Plans a compaction of the path (root first) ending at the leaf, in one pass. */
export function planDirect(
  path: readonly SessionEntry[],
  settings: PlanSettings,
  options: PlanOptions = {},
): PlanResult {
  const problem = checkPath(path);
  if (problem) return problem;
  const estimator = options.estimator ?? PI_ESTIMATOR;
  const end = path.length;
  let lc = -1;
  for (let i = end - 1; i >= 0; i--) {
    if (path[i]!.type === "compaction") {
      lc = i;
      break;
    }
  }
  const ws = Math.min(windowStartOf(path, lc), end);
  let cut: CutResult;
  if (options.cutEntryId !== undefined) {
    const id = options.cutEntryId;
    const at = path.findIndex((e) => e.id === id);
    const cutProblem = checkChosenCut(id, at, ws, at >= 0 && isValidCutPoint(path[at]!));
    if (cutProblem) return cutProblem;
    cut = splitAt(path, stepBack(path, at, ws), ws);
  } else {
    cut = findCut(path, ws, settings.keepRecentTokens, estimator);
  }
  const firstKept = Math.min(cut.firstKeptIndex, end - 1);
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : firstKept;
  let keptTokens = 0;
  let keptMessageTokens = 0;
  for (let i = firstKept; i < end; i++) {
    const e = path[i]!;
    const t = estimateEntry(e, estimator);
    keptTokens += t;
    if (e.type === "message") keptMessageTokens += t;
  }
  const context = contextTokens(path, lc, ws, estimator);
  const core: PlanCore = {
    end,
    windowStart: ws,
    firstKept,
    isSplitTurn: cut.isSplitTurn,
    turnStart: cut.isSplitTurn ? cut.turnStartIndex : -1,
    summarizeCount: countSummarizable(path, ws, historyEnd),
    turnPrefixCount: cut.isSplitTurn ? countSummarizable(path, historyEnd, firstKept) : 0,
    previousCompactionIndex: lc,
    tokensBefore: context.tokens,
    tokensBeforeSource: context.source,
    keptTokens,
    keptMessageTokens,
  };
  return assemblePlan(path, core, settings, estimator.id, {
    summarizedTokens: () => {
      let n = 0;
      for (let i = ws; i < firstKept; i++)
        if (path[i]!.type !== "compaction") n += estimateEntry(path[i]!, estimator);
      return n;
    },
    fileOps: () => {
      const files = new FileOpSet();
      for (let i = ws; i < firstKept; i++) {
        const e = path[i]!;
        if (e.type === "message") files.addMessage(entryMessage(e));
      }
      const prev = lc >= 0 ? (path[lc] as CompactionEntry) : undefined;
      if (prev && prev.fromHook !== true) files.addDetails(prev.details);
      return files.lists();
    },
  });
}
