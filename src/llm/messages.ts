/**
 * pi agent messages -> Chat Completions request messages, and tool definitions -> `tools`.
 *
 * Rules:
 * - the system prompt becomes the first `system` message;
 * - user content: a plain string when it is only text, else parts with `image_url` data URLs;
 * - first pi 1.6's rule for replies (core/agent/request-messages.ts): a reply that ended in an
 *   error or was stopped is left out, calls without a result get pi's "No result provided",
 *   back-to-back user messages are joined into one (alternating roles);
 * - assistant: text blocks joined, toolCall blocks -> `tool_calls` with JSON string arguments,
 *   thinking blocks dropped;
 * - toolResult -> role "tool" with `tool_call_id`; images of a tool result follow as a user message
 *   (the tool role carries text only), joined with a user message right after them;
 * - a tool call without a result and a result without its call are dropped, since providers reject
 *   unmatched pairs with a 400;
 * - other roles should already be user messages (session-core's toLlmMessages); any that remain are
 *   converted defensively into user text.
 */
import type OpenAI from "openai";
import { JOIN_SEPARATOR, requestMessages } from "../core/agent/request-messages.ts";
import type { LlmMessage } from "../core/session/context.ts";
import type { AgentMessage, ImageContent, TextContent, ToolCall } from "../core/session/types.ts";

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type UserPart = OpenAI.Chat.Completions.ChatCompletionContentPart;

/** A tool offered to the model (name, description, JSON schema of its arguments). */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

function textOf(content: string | (TextContent | ImageContent | { type: string })[]): string {
  if (typeof content === "string") return content;
  return content
    .filter((b): b is TextContent => b.type === "text")
    .map((b) => b.text)
    .join("\n");
}

function userContent(content: string | (TextContent | ImageContent)[]): string | UserPart[] {
  if (typeof content === "string") return content;
  if (!content.some((b) => b.type === "image")) return textOf(content);
  return content.map(
    (b): UserPart =>
      b.type === "image"
        ? { type: "image_url", image_url: { url: `data:${b.mimeType};base64,${b.data}` } }
        : { type: "text", text: (b as TextContent).text },
  );
}

function fallbackUserText(m: AgentMessage): string {
  switch (m.role) {
    case "bashExecution":
      return `Ran \`${m.command}\`\n\`\`\`\n${m.output}\n\`\`\``;
    case "custom":
      return textOf(m.content);
    case "compactionSummary":
    case "branchSummary":
      return `<summary>\n${m.summary}\n</summary>`;
    default:
      return "";
  }
}

/** Model-facing messages: other roles (should be converted already) become user text. */
function llmMessages(messages: readonly AgentMessage[]): LlmMessage[] {
  return messages.flatMap((m): LlmMessage[] => {
    if (m.role === "user" || m.role === "assistant" || m.role === "toolResult") return [m];
    const text = fallbackUserText(m);
    return text === "" ? [] : [{ role: "user", content: text, timestamp: m.timestamp }];
  });
}

export function toChatMessages(systemPrompt: string, agentMessages: readonly AgentMessage[]): ChatMessage[] {
  const messages = requestMessages(llmMessages(agentMessages));
  const answered = new Set<string>();
  const called = new Set<string>();
  for (const m of messages) {
    if (m.role === "toolResult") answered.add(m.toolCallId);
    if (m.role === "assistant" && m.stopReason !== "error") {
      for (const b of m.content) if (b.type === "toolCall") called.add((b as ToolCall).id);
    }
  }

  const out: ChatMessage[] = [];
  const toolImages = new WeakSet<ChatMessage>();
  if (systemPrompt !== "") out.push({ role: "system", content: systemPrompt });
  for (const m of messages) {
    switch (m.role) {
      case "user":
        out.push({ role: "user", content: userContent(m.content) });
        break;
      case "assistant": {
        if (m.stopReason === "error") break;
        const text = m.content
          .filter((b): b is TextContent => b.type === "text")
          .map((b) => b.text)
          .join("");
        const calls = m.content
          .filter((b): b is ToolCall => b.type === "toolCall" && answered.has((b as ToolCall).id))
          .map((b) => ({
            id: b.id,
            type: "function" as const,
            function: { name: b.name, arguments: JSON.stringify(b.arguments ?? {}) },
          }));
        if (text === "" && calls.length === 0) break;
        out.push(
          calls.length > 0
            ? { role: "assistant", content: text === "" ? null : text, tool_calls: calls }
            : { role: "assistant", content: text },
        );
        break;
      }
      case "toolResult": {
        if (!called.has(m.toolCallId)) break;
        out.push({ role: "tool", tool_call_id: m.toolCallId, content: textOf(m.content) || "(no output)" });
        const images = m.content.filter((b): b is ImageContent => b.type === "image");
        if (images.length > 0) {
          const imageMessage: ChatMessage = {
            role: "user",
            content: [
              { type: "text", text: `Image(s) returned by tool ${m.toolName}:` },
              ...images.map(
                (b): UserPart => ({
                  type: "image_url",
                  image_url: { url: `data:${b.mimeType};base64,${b.data}` },
                }),
              ),
            ],
          };
          toolImages.add(imageMessage);
          out.push(imageMessage);
        }
        break;
      }
    }
  }
  return joinUsers(fixToolMessageOrder(out, toolImages));
}

/** A tool result's images (a user message) right before a user message: one user message. */
function joinUsers(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  const parts = (c: unknown): UserPart[] =>
    typeof c === "string" ? [{ type: "text", text: c }] : Array.isArray(c) ? (c as UserPart[]) : [];
  for (const m of messages) {
    const last = out[out.length - 1];
    if (last?.role === "user" && m.role === "user") {
      out[out.length - 1] = {
        role: "user",
        content: [...parts(last.content), { type: "text", text: JOIN_SEPARATOR }, ...parts(m.content)],
      };
    } else out.push(m);
  }
  return out;
}

/**
 * Providers require every `tool` message to follow the assistant message that called it, before
 * any other role. Images from tool results (user messages) are moved after the tool block.
 */
function fixToolMessageOrder(messages: ChatMessage[], toolImages: WeakSet<ChatMessage>): ChatMessage[] {
  const out: ChatMessage[] = [];
  let pendingUsers: ChatMessage[] = [];
  for (const m of messages) {
    const last = out[out.length - 1];
    const inToolBlock = last && (last.role === "tool" || (last.role === "assistant" && "tool_calls" in last));
    if (m.role === "tool") {
      out.push(m);
      continue;
    }
    if (inToolBlock && toolImages.has(m)) {
      pendingUsers.push(m);
      continue;
    }
    out.push(...pendingUsers);
    pendingUsers = [];
    out.push(m);
  }
  out.push(...pendingUsers);
  return out;
}

export function toChatTools(tools: readonly ToolDefinition[]): OpenAI.Chat.Completions.ChatCompletionTool[] {
  return tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}
