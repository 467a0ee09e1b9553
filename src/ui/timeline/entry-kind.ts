/** What a timeline row shows for an entry: its kind, an icon, and a one-line excerpt. */
import { isPinSection, pinTextOf } from "../../core/agent/pins.ts";
import { splitProviderWords } from "../../core/agent/provider-words.ts";
import { isMoveEntry } from "../../core/session/moves.ts";
import { oneLine as toOneLine } from "../../core/session/one-line.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { boundedJson } from "../common/bounded-json.ts";

export type EntryKind =
  | "user"
  | "assistant"
  | "tool-call"
  | "tool-result"
  | "bash"
  | "compaction"
  | "branch-summary"
  | "setting"
  | "label"
  | "session-info"
  | "custom"
  | "system"
  | "usage"
  | "edit"
  | "error"
  | "other";

export interface EntryDescription {
  kind: EntryKind;
  icon: string;
  label: string;
  excerpt: string;
}

const EXCERPT_MAX = 240;

const oneLine = (text: string, max = EXCERPT_MAX) => toOneLine(text, max);

type Rec = Record<string, unknown>;

/** A markdown summary without heading marks, for a one-line excerpt. */
function plainSummary(summary: unknown): string {
  return String(summary ?? "").replace(/^#+\s*/gm, "");
}

export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const b of content as Rec[]) {
    if (b && b.type === "text" && typeof b.text === "string") parts.push(b.text);
    else if (b && b.type === "image") parts.push("[image]");
  }
  return parts.join(" ");
}

function argsSummary(args: unknown): string {
  if (!args || typeof args !== "object") return "";
  const a = args as Rec;
  for (const key of ["path", "command", "file_path", "pattern", "url", "query"]) {
    if (typeof a[key] === "string") return a[key] as string;
  }
  return oneLine(boundedJson(args, { indent: 0, maxDepth: 4, maxChars: 2_000 }).text, 120);
}

/** A system message: the prompt and tools it declares or changes. */
function describeSystem(m: Rec): EntryDescription {
  const parts: string[] = [];
  const text = contentText(m.content);
  if (text) parts.push(oneLine(text, 80));
  const sections = m.sections && typeof m.sections === "object" ? Object.entries(m.sections as Rec) : [];
  const set = sections.filter(([k, v]) => typeof v === "string" && !isPinSection(k)).map(([k]) => k);
  const removed = sections.filter(([k, v]) => v === null && !isPinSection(k)).map(([k]) => k);
  if (set.length > 0) parts.push(`sections ${set.join(", ")}`);
  if (removed.length > 0) parts.push(`removes ${removed.join(", ")}`);
  for (const [k, v] of sections) {
    if (!isPinSection(k)) continue;
    parts.push(typeof v === "string" ? `pin “${oneLine(pinTextOf(v, k), 60)}”` : `unpins ${k}`);
  }
  const names = (v: unknown) => (Array.isArray(v) ? (v as Rec[]).map((t) => String(t?.name ?? "?")) : []);
  const added = names(m.toolsAdded);
  const gone = names(m.toolsRemoved);
  if (added.length > 0) parts.push(`tools +${added.join(" +")}`);
  if (gone.length > 0) parts.push(`−${gone.join(" −")}`);
  return { kind: "system", icon: "§", label: "System prompt", excerpt: oneLine(parts.join(" · ")) };
}

function describeMessage(m: Rec): EntryDescription {
  switch (m.role) {
    case "system":
      return describeSystem(m);
    case "user":
      return { kind: "user", icon: "›", label: "User", excerpt: oneLine(contentText(m.content)) };
    case "assistant": {
      const blocks = Array.isArray(m.content) ? (m.content as Rec[]) : [];
      const text = blocks
        .filter((b) => b?.type === "text" && typeof b.text === "string")
        .map((b) => b.text as string)
        .join(" ");
      const calls = blocks.filter((b) => b?.type === "toolCall");
      const thinking = blocks.some((b) => b?.type === "thinking");
      // A stop by the person (or a reply a reload cut off and they kept) is no error.
      if (m.stopReason === "aborted") {
        const interrupted = typeof m.errorMessage === "string" && m.errorMessage !== "";
        return {
          kind: "assistant",
          icon: "◼",
          label: interrupted ? "Interrupted reply" : "Stopped by you",
          excerpt: oneLine(text || "(nothing had arrived)"),
        };
      }
      if (m.stopReason === "error") {
        // The plain words only; the provider's own text is in the row's details.
        const why =
          typeof m.errorMessage === "string"
            ? splitProviderWords(m.errorMessage).plain
            : "The request failed.";
        return { kind: "error", icon: "⚠", label: "Reply failed", excerpt: oneLine(`${why} ${text}`) };
      }
      if (calls.length > 0) {
        const list = calls.map((c) => `${String(c.name)}(${argsSummary(c.arguments)})`).join(", ");
        return {
          kind: "tool-call",
          icon: "⚒",
          label: calls.length > 1 ? `Tool calls ×${calls.length}` : "Tool call",
          excerpt: oneLine(text ? `${list} — ${text}` : list),
        };
      }
      return {
        kind: "assistant",
        icon: "◆",
        label: "Assistant",
        excerpt: oneLine(text || (thinking ? "(thinking only)" : "(empty)")),
      };
    }
    case "toolResult": {
      const name = typeof m.toolName === "string" ? m.toolName : "tool";
      return {
        kind: m.isError ? "error" : "tool-result",
        icon: m.isError ? "✕" : "↩",
        label: `${name} result${m.isError ? " (error)" : ""}`,
        excerpt: oneLine(contentText(m.content)) || "(no output)",
      };
    }
    case "bashExecution": {
      const code =
        m.exitCode === 0 || m.exitCode === undefined || m.exitCode === null ? "" : ` [exit ${m.exitCode}]`;
      return { kind: "bash", icon: "$", label: "Bash", excerpt: oneLine(`${String(m.command)}${code}`) };
    }
    case "custom":
      return {
        kind: "custom",
        icon: "✦",
        label: `Custom ${String(m.customType ?? "")}`,
        excerpt: oneLine(contentText(m.content)),
      };
    case "compactionSummary":
    case "branchSummary":
      return { kind: "custom", icon: "▣", label: String(m.role), excerpt: oneLine(String(m.summary ?? "")) };
    default:
      return { kind: "other", icon: "•", label: `Message ${String(m.role)}`, excerpt: "" };
  }
}

export function describeEntry(entry: SessionEntry): EntryDescription {
  const e = entry as Rec;
  switch (entry.type) {
    case "message":
      return e.message && typeof e.message === "object"
        ? describeMessage(e.message as Rec)
        : { kind: "other", icon: "•", label: "Message", excerpt: "" };
    case "compaction":
      return {
        kind: "compaction",
        icon: "▣",
        label: "Compaction",
        excerpt: oneLine(plainSummary(e.summary)),
      };
    case "branch_summary":
      return {
        kind: "branch-summary",
        icon: "↱",
        label: "Branch summary",
        excerpt: oneLine(plainSummary(e.summary)),
      };
    case "model_change":
      return {
        kind: "setting",
        icon: "⚙",
        label: "Model",
        excerpt: `${String(e.provider)}/${String(e.modelId)}`,
      };
    case "thinking_level_change":
      return { kind: "setting", icon: "⚙", label: "Thinking", excerpt: String(e.thinkingLevel) };
    case "active_tools_change":
      return {
        kind: "setting",
        icon: "⚙",
        label: "Tools",
        excerpt: Array.isArray(e.activeToolNames) ? e.activeToolNames.join(", ") : "",
      };
    case "label":
      return {
        kind: "label",
        icon: "⚑",
        label: "Label",
        excerpt: e.label
          ? `“${String(e.label)}” on ${String(e.targetId)}`
          : `cleared on ${String(e.targetId)}`,
      };
    case "session_info":
      return {
        kind: "session-info",
        icon: "✎",
        label: "Name",
        excerpt: e.name ? String(e.name) : "(cleared)",
      };
    case "leaf":
      return {
        kind: "setting",
        icon: "↪",
        label: "Leaf",
        excerpt: `moved to ${String(e.targetId ?? "start")}`,
      };
    case "custom":
      // A move (the timeline and the tree leave them out; other lists show a quiet marker).
      if (isMoveEntry(entry))
        return {
          kind: "setting",
          icon: "↪",
          label: "Moved here",
          excerpt:
            entry.parentId === null
              ? "to before the first entry"
              : "what is sent next continues from the entry above",
        };
      return { kind: "custom", icon: "✦", label: "Custom", excerpt: String(e.customType ?? "") };
    case "usage": {
      const u = (e.usage ?? {}) as Rec;
      const total = typeof u.totalTokens === "number" ? u.totalTokens : 0;
      const cost = (u.cost as Rec | undefined)?.total;
      return {
        kind: "usage",
        icon: "¤",
        label: `Usage ${String(e.kind ?? "")}`.trim(),
        excerpt: `${String(e.model ?? "")} · ${total.toLocaleString("en-US")} tokens${typeof cost === "number" && cost > 0 ? ` · $${cost.toFixed(4)}` : ""}`,
      };
    }
    case "context_edit": {
      const r = e.replacement as Rec | null | undefined;
      return {
        kind: "edit",
        icon: "✎",
        label: "Context edit",
        excerpt:
          r === null || r === undefined
            ? `omits ${String(e.targetId)} from what the model sees`
            : `replaces ${String(e.targetId)} for the model: ${oneLine(contentText(r.content), 160)}`,
      };
    }
    case "custom_message":
      return {
        kind: "custom",
        icon: "✦",
        label: `Custom ${String(e.customType ?? "")}`,
        excerpt: oneLine(contentText(e.content)),
      };
    default:
      return { kind: "other", icon: "•", label: entry.type, excerpt: "" };
  }
}
