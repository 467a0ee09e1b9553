/**
 * Pure mapping of Chat Completions stream chunks to a pi AssistantMessage, with live events.
 * Feed chunks with `push`, then call `finish`. No I/O: tests feed recorded chunk arrays.
 */

import type { ModelStreamEvent } from "../core/agent/types.ts";
import type {
  AssistantMessage,
  TextContent,
  ThinkingContent,
  ToolCall,
  Usage,
} from "../core/session/types.ts";
import { emptyUsage } from "../core/session/usage.ts";
import type { ModelPrices } from "./providers.ts";

export const API_NAME = "openai-completions";

/** Tool arguments longer than this are not re-parsed on every streamed fragment. */
export const LIVE_PARSE_LIMIT = 8192;

/**
 * Events for live display: the agent loop's stream events (core/agent/types.ts). `message` is the
 * live partial message (mutated in place: copy to keep).
 */
export type AssistantStreamEvent = ModelStreamEvent;

export interface ToolCallDelta {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

/** The subset of a ChatCompletionChunk this mapper reads (plus non-standard reasoning fields). */
export interface ChunkLike {
  choices?: {
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      reasoning_text?: string | null;
      tool_calls?: ToolCallDelta[];
    } | null;
    finish_reason?: string | null;
  }[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    total_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number | null } | null;
  } | null;
}

export { emptyUsage };

/** Fills the cost fields from prices in USD per million tokens. */
export function applyCost(usage: Usage, prices: ModelPrices | undefined): void {
  if (!prices) return;
  const c = usage.cost;
  c.input = (usage.input * prices.input) / 1e6;
  c.output = (usage.output * prices.output) / 1e6;
  c.cacheRead = (usage.cacheRead * (prices.cacheRead ?? prices.input)) / 1e6;
  c.cacheWrite = (usage.cacheWrite * (prices.cacheWrite ?? prices.input)) / 1e6;
  c.total = c.input + c.output + c.cacheRead + c.cacheWrite;
}

/** Parses accumulated tool arguments; invalid or non-object JSON gives {} (the tool then reports what is missing). */
export function parseToolArguments(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export class StreamMapper {
  readonly message: AssistantMessage;
  /** Whether any text, thinking or tool call has arrived (retries stop being allowed then). */
  streamed = false;
  private finishReason: string | null = null;
  private readonly toolArgs = new Map<number, { blockIndex: number; text: string; placeholderId: boolean }>();
  private current: TextContent | ThinkingContent | null = null;

  constructor(
    init: { provider: string; model: string; timestamp: number; prices?: ModelPrices },
    private readonly emit: (event: AssistantStreamEvent) => void = () => {},
  ) {
    this.prices = init.prices;
    this.message = {
      role: "assistant",
      content: [],
      api: API_NAME,
      provider: init.provider,
      model: init.model,
      usage: emptyUsage(),
      stopReason: "stop",
      timestamp: init.timestamp,
    };
  }
  private readonly prices: ModelPrices | undefined;

  start(): void {
    this.emit({ type: "start", message: this.message });
  }

  push(chunk: ChunkLike): void {
    if (chunk.usage) this.setUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta;
    if (delta) {
      const reasoning = delta.reasoning_content ?? delta.reasoning ?? delta.reasoning_text;
      if (typeof reasoning === "string" && reasoning !== "") this.appendThinking(reasoning);
      if (typeof delta.content === "string" && delta.content !== "") this.appendText(delta.content);
      for (const call of delta.tool_calls ?? []) this.appendToolCall(call);
    }
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  private appendText(text: string) {
    this.streamed = true;
    if (this.current?.type !== "text") {
      this.current = { type: "text", text: "" };
      this.message.content.push(this.current);
    }
    this.current.text += text;
    const contentIndex = this.message.content.length - 1;
    this.emit({ type: "text_delta", contentIndex, delta: text, message: this.message });
  }

  private appendThinking(text: string) {
    this.streamed = true;
    if (this.current?.type !== "thinking") {
      this.current = { type: "thinking", thinking: "" };
      this.message.content.push(this.current);
    }
    this.current.thinking += text;
    const contentIndex = this.message.content.length - 1;
    this.emit({ type: "thinking_delta", contentIndex, delta: text, message: this.message });
  }

  private appendToolCall(call: ToolCallDelta) {
    this.streamed = true;
    this.current = null;
    const index = call.index ?? this.indexWithoutIndex(call.id);
    let slot = this.toolArgs.get(index);
    if (!slot) {
      const block: ToolCall = {
        type: "toolCall",
        id: call.id ?? `call_${index}`,
        name: call.function?.name ?? "",
        arguments: {},
      };
      this.message.content.push(block);
      slot = { blockIndex: this.message.content.length - 1, text: "", placeholderId: !call.id };
      this.toolArgs.set(index, slot);
      this.emit({
        type: "toolcall_start",
        contentIndex: slot.blockIndex,
        id: block.id,
        name: block.name,
        message: this.message,
      });
    } else {
      const block = this.message.content[slot.blockIndex] as ToolCall;
      if (call.id && slot.placeholderId) {
        block.id = call.id;
        slot.placeholderId = false;
      }
      if (call.function?.name && block.name === "") block.name = call.function.name;
    }
    const fragment = call.function?.arguments ?? "";
    if (fragment !== "") {
      slot.text += fragment;
      // Live arguments for display; past a few KB re-parsing every fragment would be quadratic,
      // so big arguments (a long `write`) are parsed once, in finish().
      if (slot.text.length <= LIVE_PARSE_LIMIT) {
        const block = this.message.content[slot.blockIndex] as ToolCall;
        block.arguments = parseToolArguments(slot.text);
      }
      this.emit({
        type: "toolcall_delta",
        contentIndex: slot.blockIndex,
        delta: fragment,
        message: this.message,
      });
    }
  }

  /**
   * Some OpenAI-compatible servers omit `index`: a new id starts a new call, anything else
   * continues the latest one.
   */
  private indexWithoutIndex(id: string | null | undefined): number {
    const keys = [...this.toolArgs.keys()];
    const last = keys[keys.length - 1];
    if (last === undefined) return 0;
    const block = this.message.content[this.toolArgs.get(last)!.blockIndex] as ToolCall;
    return id && id !== block.id ? Math.max(...keys) + 1 : last;
  }

  private setUsage(u: NonNullable<ChunkLike["usage"]>) {
    const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
    const usage = this.message.usage;
    usage.input = Math.max(0, (u.prompt_tokens ?? 0) - cached);
    usage.cacheRead = cached;
    usage.cacheWrite = 0;
    usage.output = u.completion_tokens ?? 0;
    usage.totalTokens = u.total_tokens ?? usage.input + usage.cacheRead + usage.output;
    applyCost(usage, this.prices);
  }

  /** Raw argument text of each tool call, by content index (for display of invalid JSON). */
  rawToolArguments(): Map<number, string> {
    return new Map([...this.toolArgs.values()].map((s) => [s.blockIndex, s.text]));
  }

  /**
   * Completes the message. Without an override the stop reason comes from finish_reason:
   * stop -> stop (toolUse when tool calls arrived), length -> length, tool_calls -> toolUse,
   * content_filter -> error.
   */
  finish(override?: { stopReason: "error" | "aborted"; errorMessage?: string }): AssistantMessage {
    const m = this.message;
    for (const slot of this.toolArgs.values()) {
      const block = m.content[slot.blockIndex] as ToolCall;
      block.arguments = parseToolArguments(slot.text);
    }
    if (override) {
      m.stopReason = override.stopReason;
      if (override.errorMessage !== undefined) m.errorMessage = override.errorMessage;
      return m;
    }
    const hasToolCalls = this.toolArgs.size > 0;
    switch (this.finishReason) {
      case "length":
        m.stopReason = "length";
        break;
      case "content_filter":
        m.stopReason = "error";
        m.errorMessage = "The provider's content filter stopped the reply.";
        break;
      default:
        m.stopReason = hasToolCalls ? "toolUse" : "stop";
    }
    return m;
  }
}
