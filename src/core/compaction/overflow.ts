/**
 * Context-overflow detection (docs/session-format.md §13): provider error texts that mean "the
 * context is too long" (every wording pi 1.6 recognises), the silent overflow of a complete reply
 * whose reported input exceeds the window, and the truncated input of a reply stopped for length
 * with no output because the server cut the input to fit.
 */
import type { AgentMessage, AssistantMessage } from "../session/types.ts";

/** One pattern per provider wording, case-insensitive (the provider it comes from in the comment). */
export const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /prompt (?:is )?too long/i, // Anthropic, z.ai
  /prompt exceeds max length/i, // z.ai (CN)
  /request_too_large/i, // Anthropic, request bytes
  /input is too long for requested model/i, // Bedrock
  /exceeds the context window/i, // OpenAI
  /exceeds (?:the )?(?:model'?s )?maximum context length(?: of [\d,]+ tokens?|\s*\([\d,]+\))/i, // LiteLLM proxies
  /context window exceeded/i, // LiteLLM pre-check
  /input token count.*exceeds the maximum/i, // Gemini
  /maximum prompt length is \d+/i, // xAI
  /reduce the length of the messages/i, // Groq
  /maximum context length is \d+ tokens/i, // OpenRouter
  /exceeds (?:the )?maximum allowed input length of [\d,]+ tokens?/i, // OpenRouter / Poolside
  /input \(\d+ tokens\) is longer than the model'?s context length \(\d+ tokens\)/i, // Together
  /exceeds the limit of \d+/i, // GitHub Copilot
  /exceeds the available context size/i, // llama.cpp
  /greater than the context length/i, // LM Studio
  /context window exceeds limit/i, // MiniMax
  /exceeded model token limit/i, // Kimi
  /too large for model with \d+ maximum context length/i, // Mistral
  /prompt has [\d,]+ tokens?, but the configured context size is [\d,]+ tokens?/i, // DS4
  /model_context_window_exceeded/i, // z.ai finish reason
  /prompt too long; exceeded (?:max )?context length/i, // Ollama
  /range of input length should be/i, // DashScope / Qwen
  /context[_ ]length[_ ]exceeded/i, // generic
  /too many tokens/i, // generic
  /token limit exceeded/i, // generic
  /^(?:[\w -]+ API error \(413\):|413(?:\s|:|$))/i, // HTTP 413 from any provider
];

/** A body-less 400/413 means overflow only from Cerebras. */
const BODYLESS_OVERFLOW = /^4(?:00|13)\s*(?:status code)?\s*\(no body\)/i;

/** Throttling and rate limits are never overflows, whatever else the text says. */
const NOT_OVERFLOW: readonly RegExp[] = [
  /^(?:Throttling error|Service unavailable):/i,
  /rate[ _-]?limit/i,
  /too many requests/i,
  /\b429\b/,
];

/** True when a provider error message means the context is too long (never for rate limits). */
export function isContextOverflowError(message: string | undefined | null, provider?: string): boolean {
  if (typeof message !== "string" || message === "") return false;
  if (NOT_OVERFLOW.some((re) => re.test(message))) return false;
  if (OVERFLOW_PATTERNS.some((re) => re.test(message))) return true;
  return provider === "cerebras" && BODYLESS_OVERFLOW.test(message);
}

/** An assistant reply that ended in an overflow error. */
export function isOverflowErrorReply(message: AgentMessage): message is AssistantMessage {
  return (
    message.role === "assistant" &&
    message.stopReason === "error" &&
    isContextOverflowError(message.errorMessage, message.provider)
  );
}

function inputTokens(message: AssistantMessage): number {
  const u = message.usage as Partial<AssistantMessage["usage"]> | undefined;
  return (typeof u?.input === "number" ? u.input : 0) + (typeof u?.cacheRead === "number" ? u.cacheRead : 0);
}

/** A complete reply whose reported input (input + cacheRead) is strictly greater than the window (window > 0). */
export function isSilentOverflow(message: AgentMessage, contextWindow: number): boolean {
  if (message.role !== "assistant" || message.stopReason !== "stop") return false;
  if (!(contextWindow > 0)) return false;
  return inputTokens(message) > contextWindow;
}

/** A reply stopped for length with no output and an input filling the window: the server cut the input. */
export function isTruncatedInput(message: AgentMessage, contextWindow: number): boolean {
  if (message.role !== "assistant" || message.stopReason !== "length") return false;
  if (!(contextWindow > 0) || (message.usage?.output ?? 0) !== 0) return false;
  return inputTokens(message) >= contextWindow * 0.99;
}
