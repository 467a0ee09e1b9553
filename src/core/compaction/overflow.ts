/**
 * Context-overflow detection (pi-session-format.md §9): provider error texts that mean "the
 * context is too long", and the silent overflow of a reply whose reported input exceeds the window.
 */
import type { AgentMessage, AssistantMessage } from "../session/types.ts";

/** Every wording of §9, case-insensitive. */
export const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /prompt is too long/i,
  /input is too long for requested model/i,
  /exceeds the context window/i,
  /input token count.*exceeds the maximum/i,
  /maximum prompt length is \d+/i,
  /reduce the length of the messages/i,
  /maximum context length is \d+ tokens/i,
  /exceeds the limit of \d+/i,
  /exceeds the available context size/i,
  /greater than the context length/i,
  /context window exceeds limit/i,
  /exceeded model token limit/i,
  /too large for model with \d+ maximum context length/i,
  /model_context_window_exceeded/i,
  /context[_ ]length[_ ]exceeded/i,
  /too many tokens/i,
  /token limit exceeded/i,
  /^\s*(?:400|413)\b\s*(?:status code)?\s*\(no body\)/i,
];

/** Rate-limit wording is never an overflow, whatever else the text says. */
const RATE_LIMIT = /\b429\b|rate[ _-]?limit|too many requests/i;

/** True when a provider error message means the context is too long (never for rate limits). */
export function isContextOverflowError(message: string | undefined | null): boolean {
  if (typeof message !== "string" || message === "") return false;
  if (RATE_LIMIT.test(message)) return false;
  return OVERFLOW_PATTERNS.some((re) => re.test(message));
}

/** An assistant reply that ended in an overflow error. */
export function isOverflowErrorReply(message: AgentMessage): message is AssistantMessage {
  return (
    message.role === "assistant" &&
    message.stopReason === "error" &&
    isContextOverflowError(message.errorMessage)
  );
}

/** A complete reply whose reported input (input + cacheRead) is strictly greater than the window (window > 0). */
export function isSilentOverflow(message: AgentMessage, contextWindow: number): boolean {
  if (message.role !== "assistant" || message.stopReason !== "stop") return false;
  if (!(contextWindow > 0)) return false;
  const u = message.usage as Partial<AssistantMessage["usage"]> | undefined;
  const input = typeof u?.input === "number" ? u.input : 0;
  const cacheRead = typeof u?.cacheRead === "number" ? u.cacheRead : 0;
  return input + cacheRead > contextWindow;
}
