/**
 * The agent message an entry contributes to the context (pi-session-format.md §5), as used by
 * the compaction engine. Synthesized messages are cached per entry object so that token
 * estimates (cached per message object) survive re-planning.
 */
import type {
  AgentMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomMessage,
  SessionEntry,
  UserContentBlock,
} from "../session/types.ts";

const synthesized = new WeakMap<SessionEntry, AgentMessage>();

function timeOf(entry: SessionEntry): number {
  const t = Date.parse(entry.timestamp);
  return Number.isFinite(t) ? t : 0;
}

/** True for entries that enter the context: message, custom_message, non-empty branch_summary, compaction. */
export function isContextEntry(entry: SessionEntry): boolean {
  switch (entry.type) {
    case "message":
      return typeof (entry as { message?: unknown }).message === "object";
    case "custom_message":
    case "compaction":
      return true;
    case "branch_summary": {
      const s = (entry as { summary?: unknown }).summary;
      return typeof s === "string" && s !== "";
    }
    default:
      return false;
  }
}

/** The message of a context-producing entry (compactions become compactionSummary messages), else undefined. */
export function entryMessage(entry: SessionEntry): AgentMessage | undefined {
  if (entry.type === "message") {
    const m = (entry as { message?: unknown }).message;
    return m && typeof m === "object" ? (m as AgentMessage) : undefined;
  }
  if (!isContextEntry(entry)) return undefined;
  const hit = synthesized.get(entry);
  if (hit) return hit;
  const e = entry as Record<string, unknown>;
  let message: AgentMessage;
  if (entry.type === "custom_message") {
    const custom: CustomMessage = {
      role: "custom",
      customType: typeof e.customType === "string" ? e.customType : "",
      content: (typeof e.content === "string" || Array.isArray(e.content) ? e.content : "") as
        | string
        | UserContentBlock[],
      display: e.display !== false,
      details: e.details,
      timestamp: timeOf(entry),
    };
    message = custom;
  } else if (entry.type === "branch_summary") {
    const branch: BranchSummaryMessage = {
      role: "branchSummary",
      summary: String(e.summary ?? ""),
      fromId: typeof e.fromId === "string" ? e.fromId : "",
      timestamp: timeOf(entry),
    };
    message = branch;
  } else {
    const compaction: CompactionSummaryMessage = {
      role: "compactionSummary",
      summary: typeof e.summary === "string" ? e.summary : "",
      tokensBefore: typeof e.tokensBefore === "number" ? e.tokensBefore : 0,
      timestamp: timeOf(entry),
    };
    message = compaction;
  }
  synthesized.set(entry, message);
  return message;
}

/** Role of a `message` entry's message, or undefined for other entries. */
export function messageRole(entry: SessionEntry): string | undefined {
  if (entry.type !== "message") return undefined;
  const m = (entry as { message?: { role?: unknown } }).message;
  return m && typeof m.role === "string" ? m.role : undefined;
}

const CUT_ROLES = new Set([
  "user",
  "assistant",
  "bashExecution",
  "custom",
  "branchSummary",
  "compactionSummary",
]);

/** §7: a valid cut point (never a tool result: it stays with the call). */
export function isValidCutPoint(entry: SessionEntry): boolean {
  if (entry.type === "branch_summary" || entry.type === "custom_message") return true;
  const role = messageRole(entry);
  return role !== undefined && CUT_ROLES.has(role);
}

/** §7: an entry that starts a turn (a message with role custom does not). */
export function isTurnStart(entry: SessionEntry): boolean {
  if (entry.type === "branch_summary" || entry.type === "custom_message") return true;
  const role = messageRole(entry);
  return role === "user" || role === "bashExecution";
}
