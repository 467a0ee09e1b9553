/**
 * pi 1.6's system messages replayed (docs/session-format.md §3): the current prompt text, its
 * named sections and the declared tools, from every system message of a context in order.
 */
import type { AgentMessage, SystemMessage, ToolDeclaration } from "./types.ts";

/** The text of a content value: a string, or its text blocks joined with `separator`. */
export function contentText(content: unknown, separator = "\n"): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const block of content) {
    if (block && typeof block === "object" && (block as { type?: unknown }).type === "text") {
      const text = (block as { text?: unknown }).text;
      if (typeof text === "string") texts.push(text);
    }
  }
  return texts.join(separator);
}

function isSystem(message: AgentMessage): message is SystemMessage {
  return message.role === "system";
}

/** The tools declared after every system message in order: removals, then additions, by name. */
export function currentTools(messages: readonly AgentMessage[]): ToolDeclaration[] {
  const tools = new Map<string, ToolDeclaration>();
  for (const m of messages) {
    if (!isSystem(m)) continue;
    for (const t of Array.isArray(m.toolsRemoved) ? m.toolsRemoved : []) tools.delete(t?.name);
    for (const t of Array.isArray(m.toolsAdded) ? m.toolsAdded : [])
      if (t && typeof t.name === "string") tools.set(t.name, t);
  }
  return [...tools.values()];
}

/**
 * One system message holding the current prompt: every system message's content text (non-empty
 * ones, joined by a blank line), the sections patched by name (null removes one) and the current
 * tools; timestamped with the first system message. Undefined when there is none and no tool.
 */
export function currentSystemMessage(messages: readonly AgentMessage[]): SystemMessage | undefined {
  const content: string[] = [];
  const sections = new Map<string, string>();
  let timestamp: number | undefined;
  for (const m of messages) {
    if (!isSystem(m)) continue;
    timestamp ??= typeof m.timestamp === "number" ? m.timestamp : 0;
    const text = contentText(m.content);
    if (text.length > 0) content.push(text);
    if (m.sections && typeof m.sections === "object") {
      for (const [name, value] of Object.entries(m.sections)) {
        if (value === null) sections.delete(name);
        else if (typeof value === "string") sections.set(name, value);
      }
    }
  }
  const tools = currentTools(messages);
  if (timestamp === undefined && tools.length === 0) return undefined;
  const out: SystemMessage = { role: "system", content: content.join("\n\n"), timestamp: timestamp ?? 0 };
  if (sections.size > 0) out.sections = Object.fromEntries(sections);
  if (tools.length > 0) out.toolsAdded = tools;
  return out;
}

/** A system message as one prompt: its content, then each section, blank-line separated. */
export function systemMessageText(message: SystemMessage | undefined): string {
  if (!message) return "";
  const parts = [contentText(message.content)];
  for (const value of Object.values(message.sections ?? {})) if (typeof value === "string") parts.push(value);
  return parts.filter((p) => p.length > 0).join("\n\n");
}
