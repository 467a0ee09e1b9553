/**
 * Building the context (the messages a model sees) from a path, and converting it to the
 * model-facing roles. See pi-session-format.md §3 and §5. Linear in the path length.
 */
import type {
  AgentMessage,
  AssistantMessage,
  BashExecutionMessage,
  BranchSummaryEntry,
  BranchSummaryMessage,
  CompactionEntry,
  CompactionSummaryMessage,
  CustomMessage,
  CustomMessageEntry,
  SessionEntry,
  ToolResultMessage,
  UserContentBlock,
  UserMessage,
} from "./types.ts";
import { isEntryOfType } from "./types.ts";

export interface ModelRef {
  provider: string;
  modelId: string;
}

export interface SessionContext {
  messages: AgentMessage[];
  /** The id of the entry each message came from (same length as `messages`). */
  entryIds: string[];
  /** "off" when the path never sets it. */
  thinkingLevel: string;
  model?: ModelRef;
  activeTools?: string[];
}

/** ISO timestamp -> ms since epoch; 0 when unparseable (never reads the clock). */
function toMs(iso: unknown): number {
  if (typeof iso !== "string") return 0;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0 : ms;
}

export function compactionToMessage(entry: CompactionEntry): CompactionSummaryMessage {
  return {
    role: "compactionSummary",
    summary: typeof entry.summary === "string" ? entry.summary : "",
    tokensBefore: typeof entry.tokensBefore === "number" ? entry.tokensBefore : 0,
    timestamp: toMs(entry.timestamp),
  };
}

export function branchSummaryToMessage(entry: BranchSummaryEntry): BranchSummaryMessage {
  return {
    role: "branchSummary",
    summary: entry.summary,
    fromId: typeof entry.fromId === "string" ? entry.fromId : "root",
    timestamp: toMs(entry.timestamp),
  };
}

export function customMessageEntryToMessage(entry: CustomMessageEntry): CustomMessage {
  const message: CustomMessage = {
    role: "custom",
    customType: entry.customType,
    content: entry.content,
    display: entry.display,
    timestamp: toMs(entry.timestamp),
  };
  if (entry.details !== undefined) message.details = entry.details;
  return message;
}

/**
 * The message an entry contributes to the context, or undefined when it contributes none.
 * Context-producing: `message`, `custom_message`, `branch_summary` with a non-empty summary,
 * and (when emitted in place) `compaction`.
 */
function entryToMessage(entry: SessionEntry): AgentMessage | undefined {
  if (isEntryOfType(entry, "message")) {
    const message = entry.message;
    return message !== null && typeof message === "object" ? message : undefined;
  }
  if (isEntryOfType(entry, "custom_message")) return customMessageEntryToMessage(entry);
  if (isEntryOfType(entry, "branch_summary")) {
    return typeof entry.summary === "string" && entry.summary !== ""
      ? branchSummaryToMessage(entry)
      : undefined;
  }
  if (isEntryOfType(entry, "compaction")) return compactionToMessage(entry);
  return undefined;
}

/**
 * The context at the end of `path` (root first): settings from the whole path; messages per
 * §5: with a compaction on the path, the LAST one's summary first, then the context-producing
 * entries from its firstKeptEntryId up to it (none when that id is not on the path; older
 * compactions in that range appear in place as summaries), then the entries after it.
 */
export function buildSessionContext(path: readonly SessionEntry[]): SessionContext {
  let thinkingLevel = "off";
  let model: ModelRef | undefined;
  let activeTools: string[] | undefined;
  let lastCompaction = -1;

  for (let i = 0; i < path.length; i++) {
    const entry = path[i]!;
    if (isEntryOfType(entry, "thinking_level_change")) {
      if (typeof entry.thinkingLevel === "string") thinkingLevel = entry.thinkingLevel;
    } else if (isEntryOfType(entry, "model_change")) {
      model = { provider: entry.provider, modelId: entry.modelId };
    } else if (isEntryOfType(entry, "active_tools_change")) {
      if (Array.isArray(entry.activeToolNames)) activeTools = [...entry.activeToolNames];
    } else if (isEntryOfType(entry, "message")) {
      const message = entry.message as Partial<AssistantMessage> | undefined;
      if (
        message?.role === "assistant" &&
        typeof message.provider === "string" &&
        typeof message.model === "string"
      ) {
        model = { provider: message.provider, modelId: message.model };
      }
    } else if (isEntryOfType(entry, "compaction")) {
      lastCompaction = i;
    }
  }

  const messages: AgentMessage[] = [];
  const entryIds: string[] = [];
  const emit = (entry: SessionEntry): void => {
    const message = entryToMessage(entry);
    if (message === undefined) return;
    messages.push(message);
    entryIds.push(entry.id);
  };

  if (lastCompaction < 0) {
    for (const entry of path) if (!isEntryOfType(entry, "compaction")) emit(entry);
  } else {
    const compaction = path[lastCompaction] as CompactionEntry;
    emit(compaction);
    const keptId = compaction.firstKeptEntryId;
    let keptStart = lastCompaction; // nothing kept when the id is unset or not on the path
    if (typeof keptId === "string") {
      for (let i = 0; i < lastCompaction; i++) {
        if (path[i]!.id === keptId) {
          keptStart = i;
          break;
        }
      }
    }
    for (let i = keptStart; i < lastCompaction; i++) emit(path[i]!);
    for (let i = lastCompaction + 1; i < path.length; i++) emit(path[i]!);
  }

  const context: SessionContext = { messages, entryIds, thinkingLevel };
  if (model !== undefined) context.model = model;
  if (activeTools !== undefined) context.activeTools = activeTools;
  return context;
}

// ---------------------------------------------------------------------------
// Model-facing messages
// ---------------------------------------------------------------------------

export type LlmMessage = UserMessage | AssistantMessage | ToolResultMessage;

export const COMPACTION_SUMMARY_PREFIX =
  "The earlier part of this conversation was compacted to save context. This summary replaces it:\n\n";
export const BRANCH_SUMMARY_PREFIX =
  "Before returning to this point, the conversation explored another branch. This summarizes that branch:\n\n";

/** The user-message text of a compaction summary: a sentence, then `<summary>…</summary>`. */
export function compactionSummaryText(summary: string): string {
  return `${COMPACTION_SUMMARY_PREFIX}<summary>\n${summary}\n</summary>`;
}

/** The user-message text of a branch summary: a sentence, then `<summary>…</summary>`. */
export function branchSummaryText(summary: string): string {
  return `${BRANCH_SUMMARY_PREFIX}<summary>\n${summary}\n</summary>`;
}

/**
 * The user-message text of a bash execution: the command, the output in a code fence (or a
 * "no output" note), then a cancellation note or else a non-zero exit note, then a truncation
 * note with the full-output path when known.
 */
export function bashExecutionText(message: BashExecutionMessage): string {
  const parts: string[] = [`Ran the shell command: \`${message.command}\``];
  const output = typeof message.output === "string" ? message.output : "";
  parts.push(output === "" ? "(The command produced no output.)" : `\`\`\`\n${output}\n\`\`\``);
  if (message.cancelled) {
    parts.push("(The command was cancelled.)");
  } else if (typeof message.exitCode === "number" && message.exitCode !== 0) {
    parts.push(`(The command exited with code ${message.exitCode}.)`);
  }
  if (message.truncated) {
    parts.push(
      typeof message.fullOutputPath === "string" && message.fullOutputPath !== ""
        ? `(The output was truncated. Full output: ${message.fullOutputPath})`
        : "(The output was truncated.)",
    );
  }
  return parts.join("\n\n");
}

function userText(text: string, timestamp: number): UserMessage {
  return { role: "user", content: [{ type: "text", text }], timestamp };
}

/**
 * Converts a context to the roles a model accepts. user / assistant / toolResult pass through
 * unchanged (same objects); bashExecution (unless excludeFromContext), custom, branchSummary and
 * compactionSummary become user messages; any other role is dropped.
 */
export function toLlmMessages(messages: readonly AgentMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "user":
      case "assistant":
      case "toolResult":
        out.push(message);
        break;
      case "bashExecution":
        if (!message.excludeFromContext) out.push(userText(bashExecutionText(message), message.timestamp));
        break;
      case "custom": {
        const content: string | UserContentBlock[] = message.content;
        out.push({ role: "user", content, timestamp: message.timestamp });
        break;
      }
      case "branchSummary":
        out.push(userText(branchSummaryText(message.summary), message.timestamp));
        break;
      case "compactionSummary":
        out.push(userText(compactionSummaryText(message.summary), message.timestamp));
        break;
      default:
        break;
    }
  }
  return out;
}
