/** Builders for tests: entries with fixed ids and timestamps. Not part of the public API. */
import type {
  AssistantMessage,
  MessageEntry,
  SessionEntry,
  SessionHeader,
  ToolResultMessage,
  UserMessage,
} from "./types.ts";

export const TS = "2026-01-01T00:00:00.000Z";

export function header(extra: Record<string, unknown> = {}): SessionHeader {
  return { type: "session", version: 3, id: "sess-1", timestamp: TS, cwd: "/w", ...extra };
}

export function entry(
  type: string,
  id: string,
  parentId: string | null,
  fields: Record<string, unknown> = {},
): SessionEntry {
  return { type, id, parentId, timestamp: TS, ...fields } as SessionEntry;
}

export function user(text: string, timestamp = 1): UserMessage {
  return { role: "user", content: text, timestamp };
}

export function assistant(text: string, model = "m1", provider = "p1"): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "openai-completions",
    provider,
    model,
    usage: {
      input: 1,
      output: 1,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 2,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "stop",
    timestamp: 2,
  };
}

export function toolResult(text: string): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: "call-1",
    toolName: "read",
    content: [{ type: "text", text }],
    isError: false,
    timestamp: 3,
  };
}

export function msg(id: string, parentId: string | null, message: MessageEntry["message"]): SessionEntry {
  return entry("message", id, parentId, { message });
}

/** A linear chain: each entry's parent is the previous one. */
export function chain(
  specs: { id: string; type?: string; fields?: Record<string, unknown> }[],
): SessionEntry[] {
  const out: SessionEntry[] = [];
  let parent: string | null = null;
  for (const spec of specs) {
    out.push(entry(spec.type ?? "message", spec.id, parent, spec.fields ?? { message: user(spec.id) }));
    parent = spec.id;
  }
  return out;
}
