/**
 * Token accounting (docs/session-format.md §9): the pi-compatible chars/4 estimator, the
 * context-size rule (provider usage + estimates of what followed), the auto-compaction
 * threshold and the stale-usage guard. Pure; estimates are cached per message object.
 */

import { objectMemo } from "../session/object-memo.ts";
import type { AgentMessage, AssistantMessage, Usage } from "../session/types.ts";
import { jsonLength } from "./json-length.ts";

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

/**
 * Receives each string pi counts in a message (`text`), each value it counts by its compact JSON
 * (`json`: tool-call arguments, tools added) and each image (`image`).
 */
interface PartSink {
  text(text: string): void;
  json(value: unknown): void;
  image(): void;
}

function contentParts(content: unknown, sink: PartSink): void {
  if (typeof content === "string") {
    sink.text(content);
    return;
  }
  if (!Array.isArray(content)) return;
  for (const block of content) {
    if (!block || typeof block !== "object") continue;
    const b = block as { type?: unknown; text?: unknown };
    if (b.type === "text" && typeof b.text === "string") sink.text(b.text);
    else if (b.type === "image") sink.image();
  }
}

/**
 * Visits the strings pi counts in a message (§9), in order: system content, section texts and the
 * JSON of the tools it adds; user / tool result / custom text and images; assistant text +
 * thinking + tool name + compact JSON of the arguments; bash command + output; summary text. The
 * one rule behind the chars/4 estimator and the tokenizer estimator.
 */
function visitMessageParts(message: AgentMessage, sink: PartSink): void {
  const m = message as { role?: unknown } & Record<string, unknown>;
  switch (m.role) {
    case "system": {
      contentParts(m.content, sink);
      const sections = m.sections && typeof m.sections === "object" ? Object.values(m.sections) : [];
      for (const s of sections) if (typeof s === "string") sink.text(s);
      if (Array.isArray(m.toolsAdded)) sink.json(m.toolsAdded);
      break;
    }
    case "user":
    case "toolResult":
    case "custom":
      contentParts(m.content, sink);
      break;
    case "assistant": {
      const content = Array.isArray(m.content) ? m.content : [];
      for (const block of content) {
        if (!block || typeof block !== "object") continue;
        const b = block as Record<string, unknown>;
        if (b.type === "text" && typeof b.text === "string") sink.text(b.text);
        else if (b.type === "thinking" && typeof b.thinking === "string") sink.text(b.thinking);
        else if (b.type === "toolCall") {
          if (typeof b.name === "string") sink.text(b.name);
          sink.json(b.arguments ?? {});
        }
      }
      break;
    }
    case "bashExecution":
      if (typeof m.command === "string") sink.text(m.command);
      if (typeof m.output === "string") sink.text(m.output);
      break;
    case "branchSummary":
    case "compactionSummary":
      if (typeof m.summary === "string") sink.text(m.summary);
      break;
  }
}

/** The strings pi counts in a message and its image count (`visitMessageParts`), for a tokenizer. */
export function messageParts(message: AgentMessage): MessageParts {
  const parts: MessageParts = { texts: [], images: 0 };
  visitMessageParts(message, {
    text: (t) => parts.texts.push(t),
    json: (value) => parts.texts.push(JSON.stringify(value) ?? ""),
    image: () => parts.images++,
  });
  return parts;
}

/**
 * Characters counted so far by `charCounter` (one counter, reused: estimating allocates nothing;
 * a JSON value is measured, not written out).
 */
const charCounter = {
  chars: 0,
  text(t: string) {
    this.chars += t.length;
  },
  json(value: unknown) {
    this.chars += jsonLength(value) ?? 0;
  },
  image() {
    this.chars += IMAGE_CHARS;
  },
};

/** chars/4 rounded up, per message, exactly as pi counts (§9). */
export function estimateMessageTokensPi(message: AgentMessage): number {
  charCounter.chars = 0;
  visitMessageParts(message, charCounter);
  return Math.ceil(charCounter.chars / 4);
}

/** An estimator with a cache that can be given a message's count made before (stored-estimates.ts). */
export interface SeedableEstimator extends Estimator {
  /** Records `tokens` as `message`'s count, unless it is counted already. */
  seed(message: AgentMessage, tokens: number): void;
}

/**
 * Wraps a raw per-message counter with a cache kept on each message object (core/session/object-memo.ts;
 * estimators of the same id share it: they count the same).
 */
export function cachedEstimator(id: string, count: (message: AgentMessage) => number): SeedableEstimator {
  const cache = objectMemo<number>(`tokens:${id}`);
  return {
    id,
    estimateMessage(message) {
      const hit = cache.get(message);
      if (hit !== undefined) return hit;
      const n = count(message);
      cache.set(message, n);
      return n;
    },
    seed(message, tokens) {
      cache.set(message, tokens);
    },
  };
}

/** The default estimator: pi's chars/4 rule, cached per message object. */
export const PI_ESTIMATOR: SeedableEstimator = cachedEstimator("pi", estimateMessageTokensPi);

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

/** Context size of a message list (§9): last usable provider usage + estimates after it. */
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
