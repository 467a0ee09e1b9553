/**
 * The text the model sees for an entry or a message, as plain text for the "Raw" views: the
 * model-facing conversion of core's context.ts (summaries and bash runs as the user text they
 * become), tool calls as name + JSON arguments, images as a note. Pure; bounded on deep input.
 */
import { toLlmMessages } from "../../core/session/context.ts";
import { entryMessages } from "../../core/session/projection.ts";
import { systemMessageText } from "../../core/session/system-prompt.ts";
import type { AgentMessage, SessionEntry, SystemMessage } from "../../core/session/types.ts";
import { boundedJson } from "../common/bounded-json.ts";

type Rec = Record<string, unknown>;

/** JSON as sent (JSON.stringify), or a bounded rendering when it cannot be serialized. */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "undefined";
  } catch {
    return `${boundedJson(value, { indent: 0 }).text} (too deep to send as it is)`;
  }
}

function blocksText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as Rec[])
    .map((b) => {
      if (b?.type === "text") return String(b.text ?? "");
      if (b?.type === "image") {
        const size = typeof b.data === "string" ? b.data.length : 0;
        return `[image ${String(b.mimeType ?? "")}, ${size.toLocaleString("en-US")} base64 characters]`;
      }
      return `[${String(b?.type)} block]`;
    })
    .join("\n");
}

function assistantText(m: Rec): string {
  const blocks = Array.isArray(m.content) ? (m.content as Rec[]) : [];
  const parts: string[] = [];
  if (m.stopReason === "error") parts.push("(This reply ended in an error: it is not sent to the model.)");
  for (const b of blocks) {
    if (b?.type === "text") parts.push(String(b.text ?? ""));
    else if (b?.type === "toolCall")
      parts.push(`[tool call ${String(b.name)} (${String(b.id ?? "")})] ${jsonText(b.arguments ?? {})}`);
    else if (b?.type === "thinking")
      parts.push(`[thinking, not sent back to the model]\n${String(b.thinking ?? "")}`);
    else parts.push(`[${String(b?.type)} block] ${jsonText(b)}`);
  }
  return parts.join("\n\n");
}

/** The text the model sees for one message of the context. */
export function messageModelText(message: AgentMessage): string {
  const m = message as unknown as Rec;
  if (m.role === "system") return systemMessageText(message as SystemMessage);
  if (m.role === "assistant") return assistantText(m);
  if (m.role === "toolResult") return blocksText(m.content) || "(no output)";
  const [llm] = toLlmMessages([message]);
  if (!llm) {
    return m.role === "bashExecution"
      ? "(Excluded from the context: not sent to the model.)"
      : `(Not sent to the model.) ${jsonText(m)}`;
  }
  return blocksText(llm.content);
}

/** The text the model sees for an entry; entries that send nothing say so, with their JSON. */
export function entryModelText(entry: SessionEntry): string {
  const messages = entryMessages(entry);
  if (messages.length === 0) return `(This entry is not sent to the model.)\n${boundedJson(entry).text}`;
  return messages.map(messageModelText).join("\n\n");
}
