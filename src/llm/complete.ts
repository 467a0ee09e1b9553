/**
 * createCompleteFn: the one-shot `complete` function the compaction summarizer is given
 * (src/core/compaction's CompleteFn). Streams text with onDelta, honours the AbortSignal,
 * returns errors as values, never throws.
 */
import type { CompleteFn } from "../core/compaction/summarize.ts";
import type { AgentMessage } from "../core/session/types.ts";
import { type EndpointConfig, streamAssistant } from "./stream-assistant.ts";

export type { CompleteFn, CompleteRequest, CompleteResult } from "../core/compaction/summarize.ts";

export interface CompleteConfig extends EndpointConfig {
  model: string;
  /** reasoning_effort used when the request carries no thinkingLevel ("off" sends none). */
  reasoningEffort?: string;
  now?: () => number;
  fetch?: typeof fetch;
}

export function createCompleteFn(config: CompleteConfig): CompleteFn {
  return async (request) => {
    const now = config.now ?? Date.now;
    const messages: AgentMessage[] = [{ role: "user", content: request.userMessage, timestamp: now() }];
    const reasoningEffort = request.thinkingLevel ?? config.reasoningEffort;
    const reply = await streamAssistant({
      ...config,
      ...(reasoningEffort !== undefined ? { reasoningEffort } : {}),
      systemPrompt: request.systemPrompt,
      messages,
      maxTokens: request.maxTokens,
      signal: request.signal,
      onEvent: (e) => {
        if (e.type === "text_delta") request.onDelta?.(e.delta);
      },
    });
    const text = reply.content
      .filter((b) => b.type === "text")
      .map((b) => (b as { text: string }).text)
      .join("");
    if (reply.stopReason === "aborted") return { ok: false, error: "Stopped.", aborted: true };
    if (reply.stopReason === "error") {
      return { ok: false, error: reply.errorMessage ?? "The summary request failed.", aborted: false };
    }
    if (text.trim() === "")
      return { ok: false, error: "The model returned an empty summary.", aborted: false };
    if (reply.stopReason === "length") {
      return {
        ok: false,
        error:
          "The summary was cut off at the output limit; raise the reserve or use a model with a larger output.",
        aborted: false,
      };
    }
    return { ok: true, text, usage: reply.usage };
  };
}
