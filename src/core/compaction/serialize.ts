/**
 * Serializes messages for the summarizer as labelled text (docs/session-format.md §8), so that the
 * model reads a transcript instead of continuing the conversation. Non-standard roles are first
 * converted to user messages exactly as the model would see them (session/context.ts). Thinking
 * is left out, as pi 1.6 does: visible text, tool calls and results record what happened, and
 * replayed reasoning can make the request larger than the context it summarizes.
 */
import { toLlmMessages } from "../session/context.ts";
import type { AgentMessage } from "../session/types.ts";

/** Tool results longer than this keep only their first TOOL_RESULT_MAX_CHARS characters. */
export const TOOL_RESULT_MAX_CHARS = 2000;

function textOf(content: unknown, separator: string): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const block of content) {
    if (block && typeof block === "object" && block.type === "text" && typeof block.text === "string")
      texts.push(block.text);
  }
  return texts.join(separator);
}

/** Cuts a tool result to its first TOOL_RESULT_MAX_CHARS characters with a bracketed note. */
export function truncateToolResult(text: string): string {
  if (text.length <= TOOL_RESULT_MAX_CHARS) return text;
  const cut = text.length - TOOL_RESULT_MAX_CHARS;
  return `${text.slice(0, TOOL_RESULT_MAX_CHARS)}\n\n[... ${cut} more characters cut from this tool result]`;
}

/** `name(key=<JSON value>, …)` for one tool call. */
export function formatToolCall(name: string, args: unknown): string {
  const pairs: string[] = [];
  if (args && typeof args === "object" && !Array.isArray(args)) {
    for (const [key, value] of Object.entries(args as Record<string, unknown>)) {
      pairs.push(`${key}=${JSON.stringify(value) ?? "undefined"}`);
    }
  }
  return `${name}(${pairs.join(", ")})`;
}

/** The labelled transcript: `[User]:`, `[Assistant]:`, `[Assistant tool calls]:`, `[Tool result]:`. */
export function serializeConversation(messages: readonly AgentMessage[]): string {
  const parts: string[] = [];
  for (const message of toLlmMessages(messages)) {
    if (message.role === "user") {
      const text = textOf(message.content, "");
      if (text) parts.push(`[User]: ${text}`);
    } else if (message.role === "assistant") {
      const text: string[] = [];
      const calls: string[] = [];
      for (const block of Array.isArray(message.content) ? message.content : []) {
        if (!block || typeof block !== "object") continue;
        if (block.type === "text" && typeof block.text === "string") text.push(block.text);
        else if (block.type === "toolCall") calls.push(formatToolCall(String(block.name), block.arguments));
      }
      const x = text.join("\n");
      if (x) parts.push(`[Assistant]: ${x}`);
      if (calls.length > 0) parts.push(`[Assistant tool calls]: ${calls.join("; ")}`);
    } else if (message.role === "toolResult") {
      const text = textOf(message.content, "");
      if (text) parts.push(`[Tool result]: ${truncateToolResult(text)}`);
    }
  }
  return parts.join("\n\n");
}
