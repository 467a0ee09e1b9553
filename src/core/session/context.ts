/**
 * Building the context (the messages a model sees) from a path, and converting it to the
 * model-facing roles. See docs/session-format.md §5 and §8. Linear in the path length.
 */
import { type ProjectedEntry, projectPathSteps } from "./projection.ts";
import { runSteps, type Steps } from "./steps.ts";
import { currentSystemMessage } from "./system-prompt.ts";
import type {
  AgentMessage,
  AssistantMessage,
  BashExecutionMessage,
  SessionEntry,
  SystemMessage,
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
  /** The projection the messages come from (entries that contribute nothing included). */
  projection: ProjectedEntry[];
  /** The replay of every system message in the context: the session's current prompt and tools. */
  systemMessage?: SystemMessage;
  /** "off" when the path never sets it. */
  thinkingLevel: string;
  model?: ModelRef;
  activeTools?: string[];
}

/** Model and thinking level from the whole path: the last change, or the last reply's model. */
function pathSettings(
  path: readonly SessionEntry[],
): Pick<SessionContext, "thinkingLevel" | "model" | "activeTools"> {
  let thinkingLevel = "off";
  let model: ModelRef | undefined;
  let activeTools: string[] | undefined;
  for (const entry of path) {
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
    }
  }
  const out: Pick<SessionContext, "thinkingLevel" | "model" | "activeTools"> = { thinkingLevel };
  if (model !== undefined) out.model = model;
  if (activeTools !== undefined) out.activeTools = activeTools;
  return out;
}

/**
 * The context at the end of `path` (root first), as pi 1.6 builds it (§8): settings from the
 * whole path; messages from the projection (projection.ts): with a compaction on the path, the
 * latest one's system checkpoint and summary first, its kept range without system messages, then
 * the entries after it; context edits applied; older compactions contribute nothing.
 */
export function buildSessionContext(path: readonly SessionEntry[]): SessionContext {
  return runSteps(buildSessionContextSteps(path));
}

/**
 * `buildSessionContext` as steps (core/session/steps.ts: the projection a few thousand entries
 * per step, then the rest), for a caller that gives the page a turn between them (a 100k-entry
 * path takes ~50 ms).
 */
export function* buildSessionContextSteps(path: readonly SessionEntry[]): Steps<SessionContext> {
  const projection = yield* projectPathSteps(path);
  const messages: AgentMessage[] = [];
  const entryIds: string[] = [];
  for (const p of projection) {
    for (const m of p.messages) {
      messages.push(m);
      entryIds.push(p.entry.id);
    }
  }
  yield;
  const context: SessionContext = { messages, entryIds, projection, ...pathSettings(path) };
  const system = currentSystemMessage(messages);
  if (system) context.systemMessage = system;
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
 * compactionSummary become user messages; any other role is dropped, system messages included:
 * their replay (SessionContext.systemMessage) is the request's system prompt.
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
