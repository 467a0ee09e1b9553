/**
 * Generating a compaction summary with an injected `complete` function (pi-session-format.md §8).
 * Nothing here talks to the network: the llm layer implements CompleteFn. A failure or an abort
 * yields no entry fields, so no partial compaction is ever written.
 */
import type { CompactionEntry, FileListDetails } from "../session/types.ts";
import { formatFileBlocks } from "./file-ops.ts";
import type { CompactionPlan } from "./plan.ts";
import {
  buildSummaryUserMessage,
  FIRST_SUMMARY_INSTRUCTIONS,
  historySummaryBudget,
  NO_PRIOR_HISTORY,
  SPLIT_TURN_HEADING,
  SUMMARIZER_SYSTEM_PROMPT,
  TURN_PREFIX_INSTRUCTIONS,
  turnPrefixBudget,
  UPDATE_SUMMARY_INSTRUCTIONS,
} from "./prompts.ts";
import { serializeConversation } from "./serialize.ts";

export interface CompleteRequest {
  systemPrompt: string;
  userMessage: string;
  maxTokens: number;
  signal: AbortSignal;
  onDelta?: (text: string) => void;
  /** The session's thinking level for a reasoning model; absent when off or not a reasoning model. */
  thinkingLevel?: string;
}

export type CompleteResult =
  | { ok: true; text: string; usage?: { input: number; output: number } }
  | { ok: false; error: string; aborted: boolean };

/** One non-tool model call; implemented by the llm layer over the openai SDK. */
export type CompleteFn = (request: CompleteRequest) => Promise<CompleteResult>;

export interface SummarizerModel {
  /** The model's max output tokens, when known: caps the budgets. */
  maxOutputTokens?: number;
  /** True for a reasoning model: the session's thinking level is passed on (unless "off"). */
  reasoning?: boolean;
}

export interface GenerateOptions {
  complete: CompleteFn;
  signal: AbortSignal;
  /** Focus instructions for the history part. */
  focus?: string;
  model?: SummarizerModel;
  thinkingLevel?: string;
  /** Streamed text of each part. */
  onDelta?: (delta: string, part: "history" | "turnPrefix") => void;
}

export interface CompactionFields {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details: FileListDetails;
}

export type GenerateResult =
  | { ok: true; fields: CompactionFields; usage: { input: number; output: number } }
  | { ok: false; error: string; aborted: boolean };

export type SummaryRequestPlan = Pick<CompleteRequest, "systemPrompt" | "userMessage" | "maxTokens">;

/** The requests generateCompaction would send (for previews, cost estimates and tests). */
export function compactionRequests(
  plan: CompactionPlan,
  options: { focus?: string; model?: SummarizerModel } = {},
): { history: SummaryRequestPlan | null; turnPrefix: SummaryRequestPlan | null; historyText?: string } {
  const reserve = plan.settings.reserveTokens;
  const max = options.model?.maxOutputTokens;
  const split = plan.isSplitTurn && plan.turnPrefixCount > 0;
  const history = plan.messagesToSummarize.messages;
  let historyRequest: SummaryRequestPlan | null = null;
  let historyText: string | undefined;
  if (history.length > 0 || !split) {
    const updating = plan.previousSummary !== undefined && plan.previousSummary !== "";
    historyRequest = {
      systemPrompt: SUMMARIZER_SYSTEM_PROMPT,
      userMessage: buildSummaryUserMessage({
        conversation: serializeConversation(history),
        previousSummary: updating ? plan.previousSummary : undefined,
        instructions: updating ? UPDATE_SUMMARY_INSTRUCTIONS : FIRST_SUMMARY_INSTRUCTIONS,
        focus: options.focus,
      }),
      maxTokens: historySummaryBudget(reserve, max),
    };
  } else {
    // Nothing precedes the split turn. pi sends no request and writes "No prior history.";
    // when an earlier summary exists we keep it verbatim instead, so that it is not lost.
    historyText = plan.previousSummary ? plan.previousSummary : NO_PRIOR_HISTORY;
  }
  const turnPrefix: SummaryRequestPlan | null = split
    ? {
        systemPrompt: SUMMARIZER_SYSTEM_PROMPT,
        userMessage: buildSummaryUserMessage({
          conversation: serializeConversation(plan.turnPrefixMessages.messages),
          instructions: TURN_PREFIX_INSTRUCTIONS,
        }),
        maxTokens: turnPrefixBudget(reserve, max),
      }
    : null;
  const out: ReturnType<typeof compactionRequests> = { history: historyRequest, turnPrefix };
  if (historyText !== undefined) out.historyText = historyText;
  return out;
}

/** Joins the history and split-turn prefix summaries as §8 says. */
export function joinSplitSummary(history: string, prefix: string): string {
  return `${history}\n\n---\n\n${SPLIT_TURN_HEADING}\n\n${prefix}`;
}

/** Generates the summary of a plan; both parts of a split turn are requested concurrently. */
export async function generateCompaction(
  plan: CompactionPlan,
  options: GenerateOptions,
): Promise<GenerateResult> {
  if (plan.summarizeCount === 0 && plan.turnPrefixCount === 0)
    return { ok: false, error: "Nothing to summarize.", aborted: false };
  if (options.signal.aborted) return { ok: false, error: "Aborted.", aborted: true };
  const requests = compactionRequests(plan, options);
  const inner = new AbortController();
  const onOuterAbort = () => inner.abort();
  options.signal.addEventListener("abort", onOuterAbort);
  const thinking =
    options.model?.reasoning && options.thinkingLevel && options.thinkingLevel !== "off"
      ? options.thinkingLevel
      : undefined;
  const run = async (
    request: SummaryRequestPlan | null,
    part: "history" | "turnPrefix",
  ): Promise<CompleteResult> => {
    if (!request) return { ok: true, text: requests.historyText ?? "" };
    const full: CompleteRequest = { ...request, signal: inner.signal };
    const onDelta = options.onDelta;
    if (onDelta) full.onDelta = (text) => onDelta(text, part);
    if (thinking) full.thinkingLevel = thinking;
    let result: CompleteResult;
    try {
      result = await options.complete(full);
    } catch (error) {
      result = { ok: false, error: error instanceof Error ? error.message : String(error), aborted: false };
    }
    if (!result.ok) inner.abort(); // one part failed: stop the other
    return result;
  };
  try {
    const [history, prefix] = await Promise.all([
      run(requests.history, "history"),
      requests.turnPrefix ? run(requests.turnPrefix, "turnPrefix") : Promise.resolve(null),
    ]);
    const failures = [history, prefix].filter(
      (r): r is Extract<CompleteResult, { ok: false }> => r !== null && !r.ok,
    );
    if (options.signal.aborted) return { ok: false, error: failures[0]?.error ?? "Aborted.", aborted: true };
    // A real error wins over the abort it caused in the other part.
    const failure = failures.find((r) => !r.aborted) ?? failures[0];
    if (failure) return { ok: false, error: failure.error, aborted: failure.aborted };
    const h = history as Extract<CompleteResult, { ok: true }>;
    let summary = h.text.trim();
    const usage = { input: h.usage?.input ?? 0, output: h.usage?.output ?? 0 };
    if (prefix?.ok) {
      summary = joinSplitSummary(summary, prefix.text.trim());
      usage.input += prefix.usage?.input ?? 0;
      usage.output += prefix.usage?.output ?? 0;
    }
    summary += formatFileBlocks(plan.fileOps);
    return {
      ok: true,
      fields: {
        summary,
        firstKeptEntryId: plan.firstKeptEntryId,
        tokensBefore: plan.tokensBefore,
        details: { readFiles: [...plan.fileOps.readFiles], modifiedFiles: [...plan.fileOps.modifiedFiles] },
      },
      usage,
    };
  } finally {
    options.signal.removeEventListener("abort", onOuterAbort);
  }
}

/** The compaction entry to append (ids and time are passed in: core reads no clock). */
export function buildCompactionEntry(
  input: CompactionFields & { id: string; parentId: string | null; timestamp: string; fromHook?: boolean },
): CompactionEntry {
  const entry: CompactionEntry = {
    type: "compaction",
    id: input.id,
    parentId: input.parentId,
    timestamp: input.timestamp,
    summary: input.summary,
    firstKeptEntryId: input.firstKeptEntryId,
    tokensBefore: input.tokensBefore,
    details: { readFiles: [...input.details.readFiles], modifiedFiles: [...input.details.modifiedFiles] },
  };
  if (input.fromHook !== undefined) entry.fromHook = input.fromHook;
  return entry;
}
