/**
 * What a model request carries for a context: pi 1.6's one rule for a message left without a
 * reply (pi-ai's transform-messages), then back-to-back user messages joined into one.
 *
 * - an assistant reply that ended in an error or was stopped (stopReason "error" / "aborted") is
 *   left out: the model goes on from the last complete state, as pi does;
 * - a tool call of a kept reply that has no result before the next reply or user message gets
 *   pi's synthetic error result ("No result provided");
 * - a tool result whose call is not in a kept reply is left out (pi would send it, and providers
 *   reject a tool message without its call; Cutpoint writes none since its loop answers no call
 *   of a stopped reply, like pi);
 * - user messages left back to back (a reply left out, a summary before the first kept message)
 *   become one user message, so that endpoints and chat templates that require alternating roles
 *   accept the request.
 * Pure; the messages are the model-facing ones (context.ts toLlmMessages).
 */
import { type LlmMessage, toLlmMessages } from "../session/context.ts";
import type {
  AgentMessage,
  AssistantMessage,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from "../session/types.ts";

/** The text pi puts in the result of a call left unanswered. */
export const NO_RESULT_TEXT = "No result provided";
/** Between the texts of joined user messages. */
export const JOIN_SEPARATOR = "\n\n";

/** Whether a reply is left out of requests (pi 1.6: errored and stopped replies are not replayed). */
export const isReplayed = (m: AssistantMessage): boolean =>
  m.stopReason !== "error" && m.stopReason !== "aborted";

const callsOf = (m: AssistantMessage): ToolCall[] =>
  (Array.isArray(m.content) ? m.content : []).filter((b): b is ToolCall => b?.type === "toolCall");

/** The text of text-only content (blocks joined by a newline, as requests send them), else undefined. */
function plainText(c: UserMessage["content"]): string | undefined {
  if (typeof c === "string") return c;
  if (c.some((b) => b.type !== "text")) return undefined;
  return c.map((b) => String(b.text ?? "")).join("\n");
}

/** One user message with the content of both: texts joined by a blank line, images kept in order. */
export function joinUserMessages(a: UserMessage, b: UserMessage): UserMessage {
  const ta = plainText(a.content);
  const tb = plainText(b.content);
  if (ta !== undefined && tb !== undefined) return { ...a, content: `${ta}${JOIN_SEPARATOR}${tb}` };
  const blocks = (c: UserMessage["content"]) =>
    typeof c === "string" ? [{ type: "text" as const, text: c }] : c;
  return {
    ...a,
    content: [...blocks(a.content), { type: "text", text: JOIN_SEPARATOR }, ...blocks(b.content)],
  };
}

/** How the request differs from the context (for "what the model sees"). */
export interface RequestShape {
  messages: LlmMessage[];
  /** Indexes (in the input) of the replies left out. */
  leftOut: number[];
  /** Indexes (in the input) of user messages joined onto the one before them. */
  joined: number[];
  /** Tool results added for calls without one. */
  synthesized: number;
}

/** The request's messages for `messages`, with what was left out and joined. */
export function requestShape(messages: readonly LlmMessage[]): RequestShape {
  const out: LlmMessage[] = [];
  const leftOut: number[] = [];
  const joined: number[] = [];
  let synthesized = 0;
  let pending: { calls: ToolCall[]; answered: Set<string>; at: number } | null = null;
  const keptCalls = new Set<string>();
  const close = () => {
    if (!pending) return;
    for (const call of pending.calls) {
      if (pending.answered.has(call.id)) continue;
      const result: ToolResultMessage = {
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: "text", text: NO_RESULT_TEXT }],
        isError: true,
        timestamp: pending.at,
      };
      out.push(result);
      synthesized++;
    }
    pending = null;
  };
  messages.forEach((m, i) => {
    if (m.role === "assistant") {
      close();
      if (!isReplayed(m)) {
        leftOut.push(i);
        return;
      }
      const calls = callsOf(m);
      for (const c of calls) keptCalls.add(c.id);
      if (calls.length > 0) pending = { calls, answered: new Set(), at: m.timestamp };
      out.push(m);
      return;
    }
    if (m.role === "toolResult") {
      if (!keptCalls.has(m.toolCallId)) {
        leftOut.push(i);
        return;
      }
      pending?.answered.add(m.toolCallId);
      out.push(m);
      return;
    }
    close();
    const last = out[out.length - 1];
    if (last?.role === "user") {
      out[out.length - 1] = joinUserMessages(last, m);
      joined.push(i);
      return;
    }
    out.push(m);
  });
  close();
  return { messages: out, leftOut, joined, synthesized };
}

/** The messages a request carries for the model-facing `messages` (see the file comment). */
export function requestMessages(messages: readonly LlmMessage[]): LlmMessage[] {
  return requestShape(messages).messages;
}

/**
 * The `messages` a request carries for a session context's messages (its system prompt goes
 * apart): the one rule both the agent loop and "what the model sees" use.
 */
export function contextRequestMessages(messages: readonly AgentMessage[]): LlmMessage[] {
  return requestMessages(toLlmMessages(messages));
}
