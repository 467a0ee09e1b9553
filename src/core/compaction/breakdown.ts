/**
 * What the context is made of, by category (system prompt, tools, summary, kept messages,
 * messages since the compaction), from pi 1.6's projection of a path, and the honest "after" of a
 * plan measured the same way as "before" (best estimate and bound). Pure; estimates come from the given estimator.
 */
import { buildSessionContext, type SessionContext } from "../session/context.ts";
import { keptStartIndex, latestCompactionIndex } from "../session/projection.ts";
import { runSteps, type Steps } from "../session/steps.ts";
import type {
  AgentMessage,
  CompactionSummaryMessage,
  SessionEntry,
  SystemMessage,
} from "../session/types.ts";
import type { CompactionPlan } from "./plan.ts";
import { turnPrefixBudget } from "./prompts.ts";
import { summarySize } from "./summary-size.ts";
import { type Estimator, PI_ESTIMATOR } from "./tokens.ts";

export interface ContextParts {
  /** The replayed system prompt's text and sections. */
  systemPrompt: number;
  /** The tool declarations of the replayed system prompt. */
  tools: number;
  /** The latest compaction's summary (0 without one). */
  summary: number;
  /** Messages kept by the latest compaction (0 without one). */
  kept: number;
  /** Messages after the latest compaction (every message without one). */
  since: number;
}

export interface ContextAccount {
  parts: ContextParts;
  /** Sum of the parts: the estimate of everything the model sees. */
  estimate: number;
  /** Path index where the context starts (entries before it are outside). */
  windowStart: number;
  /** Path index of the latest compaction, -1 when none. */
  lastCompaction: number;
  /** 1 at the path indices whose entry puts messages in the context. */
  inContext: Uint8Array;
  /** Ids of the entries that put messages in the context. */
  inContextIds: ReadonlySet<string>;
  /**
   * nonSysCum[i]: estimates of the non-system messages the entries before path index i put in the
   * context, compactions excluded (length n + 1): what a cut at i keeps is a difference of two.
   */
  nonSysCum: Float64Array;
  systemMessage: SystemMessage | undefined;
}

const promptOnly = new WeakMap<SystemMessage, SystemMessage>();

/** A system message's estimate split in its prompt (text and sections) and its tools. */
export function systemParts(
  message: SystemMessage | undefined,
  estimator: Estimator = PI_ESTIMATOR,
): { systemPrompt: number; tools: number } {
  if (!message) return { systemPrompt: 0, tools: 0 };
  const all = estimator.estimateMessage(message);
  let bare = promptOnly.get(message);
  if (!bare) {
    const { toolsAdded: _added, toolsRemoved: _removed, ...rest } = message;
    bare = rest as SystemMessage;
    promptOnly.set(message, bare);
  }
  const systemPrompt = Math.min(all, estimator.estimateMessage(bare));
  return { systemPrompt, tools: all - systemPrompt };
}

function sumNonSystem(messages: readonly AgentMessage[], estimator: Estimator): number {
  let n = 0;
  for (const m of messages) if (m.role !== "system") n += estimator.estimateMessage(m);
  return n;
}

/** The context of a path (root first) by category, with the rows in it. Linear in the path. */
export function accountContext(
  path: readonly SessionEntry[],
  estimator: Estimator = PI_ESTIMATOR,
  /** `buildSessionContext(path)` when the caller has it already (the same result either way). */
  context: SessionContext = buildSessionContext(path),
): ContextAccount {
  return runSteps(accountContextSteps(path, estimator, context));
}

/** Projected entries accounted per step of `accountContextSteps`. */
const ACCOUNT_STEP = 4096;

/** `accountContext` as steps (core/session/steps.ts), for a caller that gives the page turns between them. */
export function* accountContextSteps(
  path: readonly SessionEntry[],
  estimator: Estimator,
  context: SessionContext,
): Steps<ContextAccount> {
  const n = path.length;
  const inContext = new Uint8Array(n);
  const perIndex = new Float64Array(n);
  const ids = new Set<string>();
  const lastCompaction = latestCompactionIndex(path);
  const keptStart = keptStartIndex(path, lastCompaction);
  const windowStart = lastCompaction < 0 ? 0 : keptStart >= 0 ? keptStart : lastCompaction + 1;
  let summary = 0;
  let done = 0;
  for (const p of context.projection) {
    if (++done % ACCOUNT_STEP === 0) yield;
    if (p.messages.length === 0) continue;
    inContext[p.pathIndex] = 1;
    ids.add(p.entry.id);
    const t = sumNonSystem(p.messages, estimator);
    if (p.pathIndex === lastCompaction) summary = t;
    else if (p.entry.type !== "compaction") perIndex[p.pathIndex] = t;
  }
  const nonSysCum = new Float64Array(n + 1);
  let kept = 0;
  let since = 0;
  for (let i = 0; i < n; i++) {
    nonSysCum[i + 1] = nonSysCum[i]! + perIndex[i]!;
    if (lastCompaction >= 0 && i < lastCompaction) kept += perIndex[i]!;
    else since += perIndex[i]!;
  }
  const parts: ContextParts = { ...systemParts(context.systemMessage, estimator), summary, kept, since };
  return {
    parts,
    estimate: parts.systemPrompt + parts.tools + parts.summary + parts.kept + parts.since,
    windowStart,
    lastCompaction,
    inContext,
    inContextIds: ids,
    nonSysCum,
    systemMessage: context.systemMessage,
  };
}

export interface ContextBreakdown extends ContextParts {
  /** The context size (the meter's number). */
  total: number;
  source: "reported" | "estimated";
  /** Provider usage minus the estimate (0 when estimated): its own part, never spread. */
  usageDifference: number;
  estimate: number;
}

/** The parts of an account against the context size (provider usage or the estimate). */
export function breakdownOf(
  account: ContextAccount,
  size: { tokens: number; source: "reported" | "estimated" },
): ContextBreakdown {
  return {
    ...account.parts,
    total: size.tokens,
    source: size.source,
    estimate: account.estimate,
    usageDifference: size.source === "reported" ? size.tokens - account.estimate : 0,
  };
}

export interface TokensAfter {
  /** The context after the compaction, estimated as it will be measured then (the best estimate). */
  total: number;
  /** The most it can be: `total` with the summary at its whole budget (= total once a summary exists). */
  bound: number;
  systemPrompt: number;
  tools: number;
  /** The summary: its typical size (summary-size.ts) until a summary exists, then its real size. */
  summary: number;
  /** The most the summary can be (its budget and file lists; its real size once it exists). */
  summaryBound: number;
  summarySource: "typical" | "summary";
  /** The file lists the summary carries, in both figures until a summary exists (summary-size.ts). */
  summaryFileLists: number;
  /** Parts the summarizer writes (2 when the cut splits a turn). */
  summaryParts: number;
  kept: number;
  /** after − before: > 0 when the compaction makes the context grow. */
  change: number;
}

/**
 * The context after compacting with `plan`, measured the same way as before it: the system
 * checkpoint, the summary (a typical size, bounded by its budget, while `summaryText` is
 * undefined) and the kept messages (system messages of the kept range move into the checkpoint;
 * older compactions drop out).
 */
export function tokensAfter(
  plan: CompactionPlan,
  account: ContextAccount,
  summaryText: string | undefined,
  estimator: Estimator = PI_ESTIMATOR,
): TokensAfter {
  const sys = systemParts(plan.systemMessage, estimator);
  const end = Math.min(plan.pathLength, account.nonSysCum.length - 1);
  const from = Math.min(plan.firstKeptIndex, end);
  const kept = account.nonSysCum[end]! - account.nonSysCum[from]!;
  const size = summarySize(plan, estimator);
  let summary = size.typical;
  let summaryBound = size.bound;
  let summarySource: TokensAfter["summarySource"] = "typical";
  if (summaryText !== undefined && summaryText.trim() !== "") {
    const message: CompactionSummaryMessage = {
      role: "compactionSummary",
      summary: summaryText.trim(),
      tokensBefore: plan.tokensBefore,
      timestamp: 0,
    };
    summary = estimator.estimateMessage(message);
    summaryBound = summary;
    summarySource = "summary";
  }
  const rest = sys.systemPrompt + sys.tools + kept;
  const total = rest + summary;
  return {
    total,
    bound: rest + summaryBound,
    ...sys,
    summary,
    summaryBound,
    summarySource,
    summaryFileLists: size.fileLists,
    summaryParts: size.parts,
    kept,
    change: total - plan.tokensBefore,
  };
}

/**
 * A cut that splits a turn summarizes the turn's start in a second summary with a budget of its
 * own. Moving the cut to the turn's start keeps those messages instead and drops that summary: the
 * bound "after" changes by `boundChange` (< 0: keeping more costs less). Undefined when the cut
 * does not split a turn, or nothing precedes the turn (its start would summarize nothing).
 */
export function turnStartTradeoff(
  plan: CompactionPlan,
  account: ContextAccount,
): { prefixTokens: number; prefixBudget: number; boundChange: number } | undefined {
  if (!plan.isSplitTurn || plan.turnPrefixCount === 0 || plan.summarizeCount === 0) return undefined;
  const end = account.nonSysCum.length - 1;
  const at = (i: number) => account.nonSysCum[Math.min(i, end)]!;
  const prefixTokens = at(plan.firstKeptIndex) - at(plan.turnStartIndex);
  const prefixBudget = turnPrefixBudget(plan.settings.reserveTokens);
  return { prefixTokens, prefixBudget, boundChange: prefixTokens - prefixBudget };
}
