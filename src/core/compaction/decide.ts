/**
 * When to compact (docs/session-format.md §9, §13), as pi 1.6 decides it, in one pure function:
 * before a prompt, between the turns of a run (after tool results) and after a run, it returns
 * nothing to do, ask the person, compact automatically, recover from an overflow or a truncated
 * reply (hide the failed attempt, compact, retry once), or report that recovery failed.
 */
import { entryTimeMs, projectPath } from "../session/projection.ts";
import type { AssistantMessage, ContextEditEntry, SessionEntry } from "../session/types.ts";
import { isOverflowErrorReply, isSilentOverflow, isTruncatedInput } from "./overflow.ts";
import { contextTokensOf, indexPath } from "./plan.ts";
import { type TriggerSetting, triggerThreshold } from "./trigger.ts";

export { type TriggerSetting, triggerThreshold };

export type CompactionMode = "ask" | "auto" | "off";

export interface DecideInput {
  moment: "before-prompt" | "between-turns" | "after-run";
  path: readonly SessionEntry[];
  mode: CompactionMode;
  contextWindow: number;
  reserveTokens: number;
  trigger?: TriggerSetting;
  /** Only remind: past the trigger nothing opens by itself. */
  remindOnly?: boolean;
  /** After a run: its last reply, the model it asked, and that model's output limit. */
  lastReply?: AssistantMessage;
  model?: string;
  maxOutputTokens?: number;
  /** One recovery per prompt: true once a compact-and-retry was made for this prompt. */
  recoveryAttempted?: boolean;
}

export type CompactionDecision =
  | { action: "none" }
  | { action: "remind"; tokens: number; threshold: number }
  | { action: "ask"; tokens: number; threshold: number }
  | { action: "auto"; tokens: number; threshold: number; why: "threshold" | "silent-overflow" }
  | {
      action: "recover";
      why: "overflow" | "length";
      /** Entries to hide from the model with omission edits: the failed reply and its tool results. */
      omit: string[];
    }
  | { action: "report"; message: string };

export const RECOVERY_FAILED_OVERFLOW =
  "The context is still too long after compacting once, so Cutpoint stopped instead of looping. Lower keep-recent tokens in the review, compact again, or use a model with a larger window.";
export const RECOVERY_FAILED_LENGTH =
  "The reply was cut off again after compacting once, so Cutpoint stopped instead of looping. Compact with less kept, or use a model with a larger window.";
export const OVERFLOW_WITH_MODE_OFF =
  "The model rejected the request as too long. Automatic compaction is off: compact from the meter, or start a new session.";

/** Path index of the entry holding `message` (by object), -1 when not on the path. */
function indexOfMessage(path: readonly SessionEntry[], message: AssistantMessage): number {
  for (let i = path.length - 1; i >= 0; i--) {
    if ((path[i] as { message?: unknown }).message === message) return i;
  }
  return -1;
}

/** The failed reply and the tool results answering its calls, as entry ids (pi hides them together). */
function failedAttempt(path: readonly SessionEntry[], at: number, reply: AssistantMessage): string[] {
  const ids = [path[at]!.id];
  const calls = new Set<string>();
  for (const b of Array.isArray(reply.content) ? reply.content : [])
    if (b && b.type === "toolCall" && typeof b.id === "string") calls.add(b.id);
  for (let i = at + 1; i < path.length; i++) {
    const m = (path[i] as { message?: { role?: unknown; toolCallId?: unknown } }).message;
    if (m?.role === "assistant") break;
    if (m?.role === "toolResult" && calls.has(String(m.toolCallId))) ids.push(path[i]!.id);
  }
  return ids;
}

/** Decides what to do at `moment` (see the file comment). */
export function decideCompaction(input: DecideInput): CompactionDecision {
  const { path, mode } = input;
  const threshold = triggerThreshold(input.contextWindow, input.reserveTokens, input.trigger);
  const reply = input.moment === "after-run" ? input.lastReply : undefined;
  if (reply && reply.stopReason === "aborted") return { action: "none" };
  const lastCompaction = path.findLastIndex((e) => e.type === "compaction");
  // A reply from before the latest compaction describes the old context: it decides nothing.
  if (reply && lastCompaction >= 0 && reply.timestamp <= entryTimeMs(path[lastCompaction]!))
    return { action: "none" };
  if (reply && input.model !== undefined && reply.model === input.model) {
    const at = indexOfMessage(path, reply);
    const after = at >= 0 ? path.slice(at + 1) : [];
    const projected = at < 0 || projectPath(path).some((p) => p.pathIndex === at && p.messages.length > 0);
    // Its usage still describes the context only when nothing edited the context since.
    const usageHolds = projected && !after.some((e) => e.type === "context_edit");
    const lastEditOnIt = after
      .filter((e) => e.type === "context_edit" && (e as ContextEditEntry).targetId === path[at]?.id)
      .at(-1) as ContextEditEntry | undefined;
    const retained =
      at < 0 || (!after.some((e) => e.type === "compaction") && lastEditOnIt?.replacement !== null);
    const explicit = isOverflowErrorReply(reply) && retained;
    const silent = usageHolds && isSilentOverflow(reply, input.contextWindow);
    const truncated = usageHolds && isTruncatedInput(reply, input.contextWindow);
    const length =
      projected &&
      reply.stopReason === "length" &&
      (input.maxOutputTokens ?? 0) > 0 &&
      (reply.usage?.output ?? 0) < (input.maxOutputTokens ?? 0);
    if (explicit || silent || truncated || length) {
      if (mode === "off")
        return explicit ? { action: "report", message: OVERFLOW_WITH_MODE_OFF } : { action: "none" };
      // A complete reply cannot be continued: compact without a retry.
      if (silent)
        return {
          action: "auto",
          tokens: contextTokensOf(indexPath(path)).tokens,
          threshold,
          why: "silent-overflow",
        };
      if (input.recoveryAttempted)
        return {
          action: "report",
          message: explicit || truncated ? RECOVERY_FAILED_OVERFLOW : RECOVERY_FAILED_LENGTH,
        };
      return {
        action: "recover",
        why: explicit || truncated ? "overflow" : "length",
        omit: at >= 0 ? failedAttempt(path, at, reply) : [],
      };
    }
  }
  if (mode === "off") return { action: "none" };
  if (path.length === 0 || path[path.length - 1]!.type === "compaction") return { action: "none" };
  if (!(input.contextWindow > 0)) return { action: "none" };
  const tokens = contextTokensOf(indexPath(path)).tokens;
  if (tokens <= threshold) return { action: "none" };
  if (input.remindOnly) return { action: "remind", tokens, threshold };
  return mode === "auto"
    ? { action: "auto", tokens, threshold, why: "threshold" }
    : { action: "ask", tokens, threshold };
}

/** The omission edits of a failed attempt (pi 1.6 records them so that pi sees what the model saw). */
export function omissionEdits(
  targets: readonly string[],
  parentId: string | null,
  newId: () => string,
  timestamp: string,
): ContextEditEntry[] {
  const out: ContextEditEntry[] = [];
  let parent = parentId;
  for (const targetId of targets) {
    const edit: ContextEditEntry = {
      type: "context_edit",
      id: newId(),
      parentId: parent,
      timestamp,
      targetId,
      replacement: null,
    };
    out.push(edit);
    parent = edit.id;
  }
  return out;
}
