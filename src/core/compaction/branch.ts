/**
 * Branch summaries (docs/session-format.md §10): what is left behind when the leaf moves to another
 * point of the tree, the new leaf rule, the token-budgeted selection (context edits of the branch
 * applied), file lists, generation with the injected complete fn, and the entry to append.
 */

import { latestEdits, projectEntry } from "../session/projection.ts";
import { getPath } from "../session/tree.ts";
import type {
  AgentMessage,
  BranchSummaryEntry,
  FileListDetails,
  SessionEntry,
  Usage,
} from "../session/types.ts";
import { entryMessage, messageRole } from "./entry-messages.ts";
import { FileOpSet, formatFileBlocks } from "./file-ops.ts";
import {
  BRANCH_SUMMARY_INSTRUCTIONS,
  BRANCH_SUMMARY_PREAMBLE,
  branchSummaryBudget,
  buildSummaryUserMessage,
  EMPTY_BRANCH_SUMMARY,
  SUMMARIZER_SYSTEM_PROMPT,
} from "./prompts.ts";
import { serializeConversation } from "./serialize.ts";
import { type CompleteFn, type CompleteRequest, type SummarizerModel, zeroUsage } from "./summarize.ts";
import { type Estimator, PI_ESTIMATOR } from "./tokens.ts";

export const DEFAULT_BRANCH_CONTEXT_WINDOW = 128000;

export interface BranchMove {
  /** Deepest entry on both paths, null when the paths share nothing. */
  commonAncestorId: string | null;
  /** Entries from the old leaf back to the common ancestor (exclusive), oldest first. */
  entries: SessionEntry[];
}

/** The entries left behind when moving from `oldLeafId` to `targetId` (null = before the first entry). */
export function branchEntries(
  byId: ReadonlyMap<string, SessionEntry>,
  oldLeafId: string | null,
  targetId: string | null,
): BranchMove {
  const oldPath = getPath(byId, oldLeafId);
  const targetIds = new Set(getPath(byId, targetId).map((e) => e.id));
  let k = oldPath.length - 1;
  while (k >= 0 && !targetIds.has(oldPath[k]!.id)) k--;
  return { commonAncestorId: k >= 0 ? oldPath[k]!.id : null, entries: oldPath.slice(k + 1) };
}

export interface NewLeaf {
  /** The leaf after navigating (null = before the first entry). */
  leafId: string | null;
  /** Text of the target user / custom message, to put back into the composer. */
  editorText?: string;
}

function plainText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b): b is { type: "text"; text: string } => b?.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join("");
}

/** §10: a user message or custom_message target moves the leaf to its parent (text back to the composer). */
export function branchNewLeaf(target: SessionEntry | null): NewLeaf {
  if (target === null) return { leafId: null };
  if (messageRole(target) === "user") {
    const content = (target as { message: { content?: unknown } }).message.content;
    return { leafId: target.parentId ?? null, editorText: plainText(content) };
  }
  if (target.type === "custom_message")
    return {
      leafId: target.parentId ?? null,
      editorText: plainText((target as { content?: unknown }).content),
    };
  return { leafId: target.id };
}

export interface BranchPreparation {
  /** Selected messages, oldest first. */
  messages: AgentMessage[];
  entryIds: string[];
  /** Estimated tokens of the selected messages. */
  totalTokens: number;
  budget: number;
  fileOps: FileListDetails;
}

export interface BranchSelectionOptions {
  contextWindow?: number;
  reserveTokens: number;
  estimator?: Estimator;
}

/** The message a left-behind entry is summarized as: edits applied; an empty branch summary still counts. */
function branchMessage(e: SessionEntry, edits: ReturnType<typeof latestEdits>): AgentMessage | undefined {
  if (e.type === "branch_summary") {
    const b = e as BranchSummaryEntry;
    const summary = typeof b.summary === "string" ? b.summary : "";
    return (
      entryMessage(e) ?? { role: "branchSummary", summary, fromId: String(b.fromId ?? "root"), timestamp: 0 }
    );
  }
  if (e.type === "compaction") return entryMessage(e);
  return projectEntry(e, edits.get(e.id))[0];
}

/**
 * §10 selection: tool results skipped; newest first while within (window or 128000) − reserve;
 * a compaction / branch summary that does not fit is still taken while < 90 % is used, then stop.
 * Files: nested default branch_summary details of every candidate, plus the tool calls of every
 * message looked at (the one that no longer fits included, as pi 1.6 counts them).
 */
export function prepareBranchSummary(
  entries: readonly SessionEntry[],
  options: BranchSelectionOptions,
): BranchPreparation {
  const estimator = options.estimator ?? PI_ESTIMATOR;
  const window =
    options.contextWindow && options.contextWindow > 0
      ? options.contextWindow
      : DEFAULT_BRANCH_CONTEXT_WINDOW;
  const budget = window - options.reserveTokens;
  const files = new FileOpSet();
  for (const e of entries) {
    if (e.type === "branch_summary" && (e as BranchSummaryEntry).fromHook !== true)
      files.addDetails((e as BranchSummaryEntry).details);
  }
  const edits = latestEdits(entries);
  const picked: { message: AgentMessage; id: string }[] = [];
  let total = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (messageRole(e) === "toolResult") continue;
    const message = branchMessage(e, edits);
    if (!message) continue;
    files.addMessage(message);
    const tokens = estimator.estimateMessage(message);
    if (budget > 0 && total + tokens > budget) {
      const isSummary = e.type === "compaction" || e.type === "branch_summary";
      if (isSummary && total < budget * 0.9) {
        picked.push({ message, id: e.id });
        total += tokens;
      }
      break;
    }
    picked.push({ message, id: e.id });
    total += tokens;
  }
  picked.reverse();
  return {
    messages: picked.map((p) => p.message),
    entryIds: picked.map((p) => p.id),
    totalTokens: total,
    budget,
    fileOps: files.lists(),
  };
}

export type BranchSummaryResult =
  | { ok: true; summary: string; details: FileListDetails; usage: Usage }
  | { ok: false; error: string; aborted: boolean };

export interface BranchGenerateOptions {
  complete: CompleteFn;
  signal: AbortSignal;
  focus?: string;
  model?: SummarizerModel;
  thinkingLevel?: string;
  onDelta?: (delta: string) => void;
}

/** The request generateBranchSummary sends (null when there is nothing to summarize). */
export function branchSummaryRequest(
  prep: BranchPreparation,
  options: { focus?: string; model?: SummarizerModel } = {},
): Pick<CompleteRequest, "systemPrompt" | "userMessage" | "maxTokens"> | null {
  if (prep.messages.length === 0) return null;
  return {
    systemPrompt: SUMMARIZER_SYSTEM_PROMPT,
    userMessage: buildSummaryUserMessage({
      conversation: serializeConversation(prep.messages),
      instructions: BRANCH_SUMMARY_INSTRUCTIONS,
      focus: options.focus,
    }),
    maxTokens: branchSummaryBudget(options.model?.maxOutputTokens),
  };
}

/** Summarizes the branch; with nothing to summarize, returns the "no content" summary without a call. */
export async function generateBranchSummary(
  prep: BranchPreparation,
  options: BranchGenerateOptions,
): Promise<BranchSummaryResult> {
  const details = { readFiles: [...prep.fileOps.readFiles], modifiedFiles: [...prep.fileOps.modifiedFiles] };
  const request = branchSummaryRequest(prep, options);
  if (!request)
    return {
      ok: true,
      summary: `${BRANCH_SUMMARY_PREAMBLE}\n\n${EMPTY_BRANCH_SUMMARY}${formatFileBlocks(details)}`,
      details,
      usage: zeroUsage(),
    };
  if (options.signal.aborted) return { ok: false, error: "Aborted.", aborted: true };
  const full: CompleteRequest = { ...request, signal: options.signal };
  if (options.onDelta) full.onDelta = options.onDelta;
  if (options.model?.reasoning && options.thinkingLevel && options.thinkingLevel !== "off")
    full.thinkingLevel = options.thinkingLevel;
  let result: Awaited<ReturnType<CompleteFn>>;
  try {
    result = await options.complete(full);
  } catch (error) {
    result = { ok: false, error: error instanceof Error ? error.message : String(error), aborted: false };
  }
  if (options.signal.aborted)
    return { ok: false, error: result.ok ? "Aborted." : result.error, aborted: true };
  if (!result.ok) return result;
  return {
    ok: true,
    summary: `${BRANCH_SUMMARY_PREAMBLE}\n\n${result.text.trim()}${formatFileBlocks(details)}`,
    details,
    usage: result.usage ?? zeroUsage(),
  };
}

/**
 * The entry as pi 1.6 writes it: parentId = the new leaf; fromId = the leaf that was left ("root"
 * when there was none). Older Cutpoint files wrote the new leaf as fromId; both are read alike.
 */
export function buildBranchSummaryEntry(input: {
  summary: string;
  details?: FileListDetails;
  newLeafId: string | null;
  oldLeafId: string | null;
  id: string;
  timestamp: string;
  fromHook?: boolean;
  usage?: Usage;
}): BranchSummaryEntry {
  const entry: BranchSummaryEntry = {
    type: "branch_summary",
    id: input.id,
    parentId: input.newLeafId,
    timestamp: input.timestamp,
    fromId: input.oldLeafId ?? "root",
    summary: input.summary,
  };
  if (input.usage) entry.usage = input.usage;
  if (input.details)
    entry.details = {
      readFiles: [...input.details.readFiles],
      modifiedFiles: [...input.details.modifiedFiles],
    };
  if (input.fromHook !== undefined) entry.fromHook = input.fromHook;
  return entry;
}
