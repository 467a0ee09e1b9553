/**
 * Generating a compaction summary with an injected `complete` function (docs/session-format.md §11).
 * Nothing here talks to the network: the llm layer implements CompleteFn. A failure or an abort
 * yields no entry fields, so no partial compaction is ever written. The two parts of a split turn
 * are requested one after the other, as pi 1.6 does.
 */
import type { CompactionEntry, Usage } from "../session/types.ts";
import { addUsage, emptyUsage } from "../session/usage.ts";
import { type CompactionFields, compactionDetails } from "./compaction-record.ts";
import { formatFileBlocks } from "./file-ops.ts";
import { historyInstructions } from "./instructions.ts";
import type { CompactionPlan } from "./plan.ts";
import {
  buildSummaryUserMessage,
  buildTurnPrefixUserMessage,
  NO_PRIOR_HISTORY,
  SPLIT_TURN_HEADING,
  SUMMARIZER_SYSTEM_PROMPT,
  summaryRequestBudget,
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
  | { ok: true; text: string; usage?: Usage }
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
  /** The person's summary instructions (instructions.ts) for the history part; the default when absent. */
  instructions?: string;
  model?: SummarizerModel;
  thinkingLevel?: string;
  /** Streamed text of each part. */
  onDelta?: (delta: string, part: "history" | "turnPrefix") => void;
}

export type GenerateResult =
  | { ok: true; fields: CompactionFields; usage: Usage }
  | { ok: false; error: string; aborted: boolean };

/** The fields every summary of a plan shares (generated or offline): cut, tokens, files, system checkpoint. */
export function planFields(plan: CompactionPlan, summary: string): CompactionFields {
  const fields: CompactionFields = {
    summary,
    firstKeptEntryId: plan.firstKeptEntryId,
    tokensBefore: plan.tokensBefore,
    details: { readFiles: [...plan.fileOps.readFiles], modifiedFiles: [...plan.fileOps.modifiedFiles] },
  };
  if (plan.systemMessage) fields.systemMessage = plan.systemMessage;
  return fields;
}

export type SummaryRequestPlan = Pick<CompleteRequest, "systemPrompt" | "userMessage" | "maxTokens">;

/** The requests generateCompaction would send (for previews, cost estimates and tests). */
export function compactionRequests(
  plan: CompactionPlan,
  options: { focus?: string; instructions?: string; model?: SummarizerModel } = {},
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
        instructions: historyInstructions(options.instructions, updating),
        focus: options.focus,
      }),
      maxTokens: summaryRequestBudget("history", reserve, max),
    };
  } else {
    // Nothing precedes the split turn: no history request; the previous summary (or "No prior
    // history.") stands as the history part, as pi 1.6 does.
    historyText = plan.previousSummary ? plan.previousSummary : NO_PRIOR_HISTORY;
  }
  const turnPrefix: SummaryRequestPlan | null = split
    ? {
        systemPrompt: SUMMARIZER_SYSTEM_PROMPT,
        userMessage: buildTurnPrefixUserMessage(
          serializeConversation(plan.turnPrefixMessages.messages),
          options.focus,
        ),
        maxTokens: summaryRequestBudget("turnPrefix", reserve, max),
      }
    : null;
  const out: ReturnType<typeof compactionRequests> = { history: historyRequest, turnPrefix };
  if (historyText !== undefined) out.historyText = historyText;
  return out;
}

/** Joins the history and split-turn prefix summaries as §11 says. */
export function joinSplitSummary(history: string, prefix: string): string {
  return `${history}\n\n---\n\n${SPLIT_TURN_HEADING}\n\n${prefix}`;
}

/** Generates the summary of a plan: the history part, then (split turn) the prefix part. */
export async function generateCompaction(
  plan: CompactionPlan,
  options: GenerateOptions,
): Promise<GenerateResult> {
  if (plan.summarizeCount === 0 && plan.turnPrefixCount === 0)
    return { ok: false, error: "Nothing to summarize.", aborted: false };
  if (options.signal.aborted) return { ok: false, error: "Aborted.", aborted: true };
  const requests = compactionRequests(plan, options);
  const thinking =
    options.model?.reasoning && options.thinkingLevel && options.thinkingLevel !== "off"
      ? options.thinkingLevel
      : undefined;
  const run = async (
    request: SummaryRequestPlan,
    part: "history" | "turnPrefix",
  ): Promise<CompleteResult> => {
    const full: CompleteRequest = { ...request, signal: options.signal };
    const onDelta = options.onDelta;
    if (onDelta) full.onDelta = (text) => onDelta(text, part);
    if (thinking) full.thinkingLevel = thinking;
    try {
      return await options.complete(full);
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error), aborted: false };
    }
  };
  const failed = (r: Extract<CompleteResult, { ok: false }>): GenerateResult => ({
    ok: false,
    error: r.error,
    aborted: r.aborted || options.signal.aborted,
  });
  let summary = requests.historyText ?? "";
  let usage = emptyUsage();
  if (requests.history) {
    const h = await run(requests.history, "history");
    if (!h.ok) return failed(h);
    summary = h.text.trim();
    usage = addUsage(usage, h.usage);
  }
  if (requests.turnPrefix) {
    if (options.signal.aborted) return { ok: false, error: "Aborted.", aborted: true };
    const p = await run(requests.turnPrefix, "turnPrefix");
    if (!p.ok) return failed(p);
    summary = joinSplitSummary(summary, p.text.trim());
    usage = addUsage(usage, p.usage);
  }
  const fields = planFields(plan, summary + formatFileBlocks(plan.fileOps));
  fields.usage = usage;
  return { ok: true, fields, usage };
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
    details: compactionDetails(input.details, {
      coverage: input.details.coverage,
      record: input.details.cutpoint,
    }),
  };
  if (input.usage) entry.usage = input.usage;
  if (input.fromHook !== undefined) entry.fromHook = input.fromHook;
  if (input.systemMessage) {
    // The checkpoint carries the compaction's own time, as pi 1.6 writes it.
    const ms = Date.parse(input.timestamp);
    entry.systemMessage = { ...input.systemMessage, timestamp: Number.isFinite(ms) ? ms : 0 };
  }
  return entry;
}
