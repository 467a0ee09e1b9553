/**
 * Token accounting (docs/session-format.md §6): the pi-compatible chars/4 estimator, the
 * context-size rule (provider usage + estimates of what followed), the auto-compaction
 * threshold and the stale-usage guard. Pure; estimates are cached per message object.
 */
import type { AgentMessage, AssistantMessage, SessionEntry, Usage } from "../session/types.ts";

/** Characters counted for one image block (pi's rule). */
export const IMAGE_CHARS = 4800;

export interface CompactionSettings {
  enabled: boolean;
  reserveTokens: number;
  keepRecentTokens: number;
}

export const DEFAULT_COMPACTION_SETTINGS: Readonly<CompactionSettings> = {
  enabled: true,
  reserveTokens: 16384,
  keepRecentTokens: 20000,
};

/** Counts the tokens of one agent message. Implementations must be deterministic. */
export interface Estimator {
  /** "pi" for the chars/4 estimator, "tokenizer:<encoding>" for a real tokenizer. */
  readonly id: string;
  estimateMessage(message: AgentMessage): number;
}

/** The textual parts of a message that count toward its size, plus its image count. */
export interface MessageParts {
  texts: string[];
  images: number;
}

function blockText(block: unknown): { text?: string; image?: boolean } {
  if (!block || typeof block !== "object") return {};
  const b = block as { type?: unknown; text?: unknown; thinking?: unknown };
  if (b.type === "text" && typeof b.text === "string") return { text: b.text };
  if (b.type === "image") return { image: true };
  return {};
}

function contentParts(content: unknown, parts: MessageParts): void {
  if (typeof content === "string") {
    parts.texts.push(content);
    return;
  }
  if (!Array.isArray(content)) return;
  for (const block of content) {
    const t = blockText(block);
    if (t.text !== undefined) parts.texts.push(t.text);
    else if (t.image) parts.images++;
  }
}

/**
 * Splits a message into the strings pi counts (§6): system content, section texts and the JSON
 * of the tools it adds; user / tool result / custom text and images; assistant text + thinking + tool name + compact JSON of the arguments; bash command
 * + output; summary text. Shared by the chars/4 estimator and the tokenizer estimator.
 */
export function messageParts(message: AgentMessage): MessageParts {
  const parts: MessageParts = { texts: [], images: 0 };
  const m = message as { role?: unknown } & Record<string, unknown>;
  switch (m.role) {
    case "system": {
      contentParts(m.content, parts);
      const sections = m.sections && typeof m.sections === "object" ? Object.values(m.sections) : [];
      for (const s of sections) if (typeof s === "string") parts.texts.push(s);
      if (Array.isArray(m.toolsAdded)) parts.texts.push(JSON.stringify(m.toolsAdded));
      break;
    }
    case "user":
    case "toolResult":
    case "custom":
      contentParts(m.content, parts);
      break;
    case "assistant": {
      const content = Array.isArray(m.content) ? m.content : [];
      for (const block of content) {
        if (!block || typeof block !== "object") continue;
        const b = block as Record<string, unknown>;
        if (b.type === "text" && typeof b.text === "string") parts.texts.push(b.text);
        else if (b.type === "thinking" && typeof b.thinking === "string") parts.texts.push(b.thinking);
        else if (b.type === "toolCall") {
          if (typeof b.name === "string") parts.texts.push(b.name);
          parts.texts.push(JSON.stringify(b.arguments ?? {}) ?? "");
        }
      }
      break;
    }
    case "bashExecution":
      if (typeof m.command === "string") parts.texts.push(m.command);
      if (typeof m.output === "string") parts.texts.push(m.output);
      break;
    case "branchSummary":
    case "compactionSummary":
      if (typeof m.summary === "string") parts.texts.push(m.summary);
      break;
  }
  return parts;
}

/** chars/4 rounded up, per message, exactly as pi counts (§6). */
export function estimateMessageTokensPi(message: AgentMessage): number {
  const parts = messageParts(message);
  let chars = parts.images * IMAGE_CHARS;
  for (const t of parts.texts) chars += t.length;
  return Math.ceil(chars / 4);
}

/** Wraps a raw per-message counter with a WeakMap cache keyed by the message object. */
export function cachedEstimator(id: string, count: (message: AgentMessage) => number): Estimator {
  const cache = new WeakMap<object, number>();
  return {
    id,
    estimateMessage(message) {
      const hit = cache.get(message);
      if (hit !== undefined) return hit;
      const n = count(message);
      cache.set(message, n);
      return n;
    },
  };
}

/** The default estimator: pi's chars/4 rule, cached per message object. */
export const PI_ESTIMATOR: Estimator = cachedEstimator("pi", estimateMessageTokensPi);

/** pi's reported context size of one usage: totalTokens, or the sum of its parts when that is 0. */
function finite(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

export function usageTokens(usage: Partial<Usage> | undefined): number {
  if (!usage || typeof usage !== "object") return 0;
  const num = finite;
  const total = num(usage.totalTokens);
  if (total > 0) return total;
  return num(usage.input) + num(usage.output) + num(usage.cacheRead) + num(usage.cacheWrite);
}

/** A reply whose usage describes the context: assistant, not aborted / error, usage total > 0. */
export function hasContextUsage(message: AgentMessage): message is AssistantMessage {
  if (message.role !== "assistant") return false;
  const a = message as AssistantMessage;
  if (a.stopReason === "aborted" || a.stopReason === "error") return false;
  return usageTokens(a.usage) > 0;
}

export interface ContextTokens {
  tokens: number;
  /** "reported": provider usage of `usageIndex` + estimates after it; "estimated": all estimates. */
  source: "reported" | "estimated";
  /** Index in the message list of the assistant message whose usage was used, or null. */
  usageIndex: number | null;
  usageTokens: number;
  trailingTokens: number;
}

export interface EstimateContextOptions {
  estimator?: Estimator;
  /**
   * Stale-usage guard: usage from messages at an index below this one is ignored (their
   * usage describes an older, larger context). Pass the index of the compaction summary.
   */
  ignoreUsageBefore?: number;
}

/** Context size of a message list (§6): last usable provider usage + estimates after it. */
export function estimateContextTokens(
  messages: readonly AgentMessage[],
  options: EstimateContextOptions = {},
): ContextTokens {
  const estimator = options.estimator ?? PI_ESTIMATOR;
  const floor = options.ignoreUsageBefore ?? 0;
  let usageIndex = -1;
  for (let i = messages.length - 1; i >= floor; i--) {
    if (hasContextUsage(messages[i]!)) {
      usageIndex = i;
      break;
    }
  }
  let trailing = 0;
  for (let i = usageIndex + 1; i < messages.length; i++) trailing += estimator.estimateMessage(messages[i]!);
  if (usageIndex < 0) {
    return {
      tokens: trailing,
      source: "estimated",
      usageIndex: null,
      usageTokens: 0,
      trailingTokens: trailing,
    };
  }
  const reported = usageTokens((messages[usageIndex] as AssistantMessage).usage);
  return {
    tokens: reported + trailing,
    source: "reported",
    usageIndex,
    usageTokens: reported,
    trailingTokens: trailing,
  };
}

/** pi's trigger: enabled and contextTokens > contextWindow − reserveTokens. */
export function shouldCompact(
  contextTokens: number,
  contextWindow: number,
  settings: Pick<CompactionSettings, "enabled" | "reserveTokens">,
): boolean {
  if (!settings.enabled) return false;
  if (!(contextWindow > 0)) return false;
  return contextTokens > contextWindow - settings.reserveTokens;
}

/** The auto-compaction threshold in tokens (window − reserve), never below 0. */
export function compactionThreshold(contextWindow: number, reserveTokens: number): number {
  return Math.max(0, contextWindow - reserveTokens);
}

function entryTimeMs(entry: SessionEntry): number {
  const t = Date.parse(entry.timestamp);
  return Number.isFinite(t) ? t : Number.NaN;
}

/**
 * Stale-usage guard (§6): true when the reply whose usage would be used is older than the
 * latest compaction on the path (its usage describes the old, larger context). Compares
 * positions on the path when the reply is on it, else timestamps (message ms vs entry ISO).
 */
export function isUsageStale(path: readonly SessionEntry[], usageMessage: AgentMessage | undefined): boolean {
  if (!usageMessage) return false;
  let compactionIndex = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i]!.type === "compaction") {
      compactionIndex = i;
      break;
    }
  }
  if (compactionIndex < 0) return false;
  for (let i = path.length - 1; i >= 0; i--) {
    const e = path[i]!;
    if (e.type === "message" && (e as { message?: unknown }).message === usageMessage)
      return i < compactionIndex;
  }
  const compactionTime = entryTimeMs(path[compactionIndex]!);
  const ts = (usageMessage as { timestamp?: unknown }).timestamp;
  if (typeof ts !== "number" || Number.isNaN(compactionTime)) return false;
  return ts < compactionTime;
}
