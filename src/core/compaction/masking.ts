/**
 * Masking instead of summarizing: replaces old or large tool results in the model's context with a
 * short placeholder (tool, arguments, size, first line) through pi 1.6 `context_edit` entries,
 * which leave the raw history untouched. Pure: ids and the timestamp are passed in. The tokens it
 * saves come from the projection itself (the path indexed with the edits appended). "Mask first,
 * summarize only if still over the threshold" returns both plans. Undo appends edits whose
 * replacement is the original content (the format is append-only: the latest edit wins).
 */

import { clip, contentText } from "../coverage/coverage-text.ts";
import type { ContextEditEntry, SessionEntry, ToolCall, ToolResultMessage } from "../session/types.ts";
/** Every placeholder starts with this (so a masked result is never masked again). */
import { isMasked, MASK_PREFIX } from "./mask-marker.ts";
import { ABSENT } from "./path-index.ts";
import { contextTokensOf, indexPath, type PlanResult, type PlanSettings, planCompaction } from "./plan.ts";
import { formatToolCall } from "./serialize.ts";
import { type Estimator, PI_ESTIMATOR, shouldCompact } from "./tokens.ts";

export { isMasked, MASK_PREFIX };

export interface EditIds {
  /** The id of the n-th new entry (0-based); must not clash with the path's ids. */
  newId: (n: number) => string;
  /** ISO timestamp of the new entries. */
  timestamp: string;
}

export interface MaskingOptions extends EditIds {
  /** Only tool results before this path index (e.g. a plan's firstKeptIndex); default: the whole path. */
  beforeIndex?: number;
  /** Only tool results whose current estimate is at least this many tokens (default 100). */
  minTokens?: number;
  estimator?: Estimator;
}

export interface MaskTarget {
  entryId: string;
  pathIndex: number;
  toolName: string;
  /** Estimate of the result as the model sees it now, and of its placeholder. */
  tokens: number;
  placeholderTokens: number;
  placeholder: string;
}

export interface MaskingPlan {
  /** The context_edit entries to append, chained from the leaf (parentId), in order. */
  edits: ContextEditEntry[];
  targets: MaskTarget[];
  tokensBefore: number;
  tokensBeforeSource: "reported" | "estimated";
  /** Estimated tokens the edits remove from the context (projection before minus after). */
  savedTokens: number;
  /** tokensBefore − savedTokens. */
  tokensAfter: number;
}

export const DEFAULT_MASK_MIN_TOKENS = 100;

/** `[Tool output masked to save context. read(path="a.ts") returned 12,345 characters in 210 lines; it began: "…"]` */
export function maskPlaceholder(call: string, text: string, images: number): string {
  const lines = text === "" ? 0 : text.split("\n").length;
  const first = text.split("\n").find((l) => l.trim() !== "");
  const size = `${text.length.toLocaleString("en-US")} characters in ${lines} line${lines === 1 ? "" : "s"}`;
  const pics = images > 0 ? ` and ${images} image${images === 1 ? "" : "s"}` : "";
  const began = first ? `; it began: ${JSON.stringify(clip(first, 120))}` : "";
  return `${MASK_PREFIX} ${clip(call, 160)} returned ${size}${pics}${began}. Run the tool again if it is needed.]`;
}

function editEntry(
  ids: EditIds,
  n: number,
  parentId: string | null,
  targetId: string,
  content: unknown,
): ContextEditEntry {
  return {
    type: "context_edit",
    id: ids.newId(n),
    parentId,
    timestamp: ids.timestamp,
    targetId,
    replacement: { content: content as string },
  };
}

/** Body estimate of the current context (no system messages): what edits change. */
function bodyTokens(index: ReturnType<typeof indexPath>): number {
  index.ensure();
  const ws = Math.min(index.windowStart(), index.length);
  return index.nonSysCum[index.length]! - index.nonSysCum[ws]!;
}

/** Which tool results to mask, the edits that mask them and what that saves. */
export function planMasking(path: readonly SessionEntry[], options: MaskingOptions): MaskingPlan {
  const index = indexPath(path, options.estimator);
  index.ensure();
  const before = contextTokensOf(index);
  const ws = Math.min(index.windowStart(), path.length);
  const end = Math.min(options.beforeIndex ?? path.length, path.length);
  const min = options.minTokens ?? DEFAULT_MASK_MIN_TOKENS;
  const calls = new Map<string, ToolCall>();
  const targets: MaskTarget[] = [];
  const edits: ContextEditEntry[] = [];
  let parentId = path.length > 0 ? path[path.length - 1]!.id : null;
  for (let i = ws; i < end; i++) {
    if (index.flags[i]! & ABSENT) continue;
    for (const m of index.messagesAt(i)) {
      if (m.role === "assistant" && Array.isArray(m.content))
        for (const b of m.content) if (b?.type === "toolCall") calls.set(b.id, b);
      if (m.role !== "toolResult") continue;
      const r = m as ToolResultMessage;
      if (isMasked(r.content) || index.est[i]! < min) continue;
      const call = calls.get(r.toolCallId);
      const text = contentText(r.content);
      const images = Array.isArray(r.content) ? r.content.filter((b) => b?.type === "image").length : 0;
      const placeholder = maskPlaceholder(
        call ? formatToolCall(call.name, call.arguments) : `${r.toolName}(…)`,
        text,
        images,
      );
      // A placeholder no smaller than the output (a short one, with min lowered) would grow the context.
      const estimator = options.estimator ?? PI_ESTIMATOR;
      const masked: ToolResultMessage = { ...r, content: [{ type: "text", text: placeholder }] };
      if (estimator.estimateMessage(masked) >= estimator.estimateMessage(r)) continue;
      const entry = path[i]!;
      const edit = editEntry(options, edits.length, parentId, entry.id, placeholder);
      parentId = edit.id;
      edits.push(edit);
      targets.push({
        entryId: entry.id,
        pathIndex: i,
        toolName: String(r.toolName),
        tokens: index.est[i]!,
        placeholderTokens: 0,
        placeholder,
      });
    }
  }
  const bodyBefore = bodyTokens(index);
  for (const e of edits) index.append(e);
  const saved = edits.length > 0 ? bodyBefore - bodyTokens(index) : 0;
  for (const t of targets) t.placeholderTokens = index.est[t.pathIndex]!;
  return {
    edits,
    targets,
    tokensBefore: before.tokens,
    tokensBeforeSource: before.source,
    savedTokens: saved,
    tokensAfter: Math.max(0, before.tokens - saved),
  };
}

/**
 * Undo: edits that give the targets their original content back (the stored message content).
 * Targets not on the path, or not messages, are skipped.
 */
export function unmaskEdits(
  path: readonly SessionEntry[],
  targetIds: readonly string[],
  ids: EditIds,
): ContextEditEntry[] {
  const byId = new Map(path.map((e) => [e.id, e]));
  const out: ContextEditEntry[] = [];
  let parentId = path.length > 0 ? path[path.length - 1]!.id : null;
  for (const id of targetIds) {
    const e = byId.get(id) as { type: string; message?: { content?: unknown } } | undefined;
    if (e?.type !== "message" || e.message?.content === undefined) continue;
    const edit = editEntry(ids, out.length, parentId, id, e.message.content);
    parentId = edit.id;
    out.push(edit);
  }
  return out;
}

export interface MaskThenSummarize {
  /** The summary plan on the path as it is (what a summary alone would do). */
  summaryOnly: PlanResult;
  /** Masking of the tool results outside that plan's kept range. */
  masking: MaskingPlan;
  maskedPath: SessionEntry[];
  /** The masked context is still over contextWindow − reserveTokens. */
  stillOver: boolean;
  /** The summary plan on the masked path, only when still over. */
  afterMasking: PlanResult | null;
}

/** Mask first; plan a summary of the masked path only if it is still over the threshold. */
export function maskThenSummarize(
  path: readonly SessionEntry[],
  settings: PlanSettings,
  contextWindow: number,
  options: Omit<MaskingOptions, "beforeIndex">,
): MaskThenSummarize {
  const estimator = options.estimator ? { estimator: options.estimator } : {};
  const summaryOnly = planCompaction(path, settings, estimator);
  const plan = summaryOnly.ok ? summaryOnly.plan : summaryOnly.plan;
  const masking = planMasking(path, { ...options, beforeIndex: plan ? plan.firstKeptIndex : 0 });
  const maskedPath = [...path, ...masking.edits];
  const stillOver = shouldCompact(masking.tokensAfter, contextWindow, {
    enabled: true,
    reserveTokens: settings.reserveTokens,
  });
  return {
    summaryOnly,
    masking,
    maskedPath,
    stillOver,
    afterMasking: stillOver ? planCompaction(maskedPath, settings, estimator) : null,
  };
}
