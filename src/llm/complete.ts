/**
 * createCompleteFn: the one-shot "complete" function the compaction summarizer is given
 * (structurally the CompleteFn of src/core/compaction). Streams text with onDelta, honours the
 * AbortSignal, returns errors as values, never throws.
 */
import type { AgentMessage } from "../core/session/types.ts";
import { type EndpointConfig, streamAssistant } from "./stream-assistant.ts";

export interface CompleteRequest {
  systemPrompt: string;
  userMessage: string;
  maxTokens: number;
  signal: AbortSignal;
  onDelta?: (text: string) => void;
}

export type CompleteResult =
  | { ok: true; text: string; usage?: { input: number; output: number } }
  | { ok: false; error: string; aborted: boolean };

export type CompleteFnLike = (request: CompleteRequest) => Promise<CompleteResult>;

export interface CompleteConfig extends EndpointConfig {
  model: string;
  /** reasoning_effort for reasoning models (the session's thinking level; "off" sends none). */
  reasoningEffort?: string;
  now?: () => number;
  fetch?: typeof fetch;
}

export function createCompleteFn(config: CompleteConfig): CompleteFnLike {
  return async (request) => {
    const now = config.now ?? Date.now;
    const messages: AgentMessage[] = [{ role: "user", content: request.userMessage, timestamp: now() }];
    const reply = await streamAssistant({
      ...config,
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
    const u = reply.usage;
    return { ok: true, text, usage: { input: u.input + u.cacheRead + u.cacheWrite, output: u.output } };
  };
}
