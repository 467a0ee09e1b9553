/**
 * Types of the pi session format (JSONL), version 3 as pi 1.6 writes it, with pi's exact tags
 * and field names. See docs/session-format.md. Read loose, write strict: every object keeps
 * unknown fields (the index signatures), so import -> export round-trips.
 */

export const CURRENT_SESSION_VERSION = 3;

/** Unknown fields survive: every stored object may carry extra keys. */
export type Loose = { [key: string]: unknown };

// ---------------------------------------------------------------------------
// Content blocks
// ---------------------------------------------------------------------------

export interface TextContent extends Loose {
  type: "text";
  text: string;
}

export interface ImageContent extends Loose {
  type: "image";
  /** base64 */
  data: string;
  mimeType: string;
}

export interface ThinkingContent extends Loose {
  type: "thinking";
  thinking: string;
}

export interface ToolCall extends Loose {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type UserContentBlock = TextContent | ImageContent;
export type AssistantContentBlock = TextContent | ThinkingContent | ToolCall;
export type ToolResultContentBlock = TextContent | ImageContent;

// ---------------------------------------------------------------------------
// Messages (entry.message)
// ---------------------------------------------------------------------------

export interface UsageCost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
}

export interface Usage extends Loose {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: UsageCost;
}

export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

export interface UserMessage extends Loose {
  role: "user";
  content: string | UserContentBlock[];
  /** ms since epoch */
  timestamp: number;
}

export interface AssistantMessage extends Loose {
  role: "assistant";
  content: AssistantContentBlock[];
  api: string;
  provider: string;
  model: string;
  usage: Usage;
  stopReason: StopReason;
  errorMessage?: string;
  /** pi 1.6: the thinking level requested for this reply. */
  thinkingLevel?: string;
  timestamp: number;
}

/** A tool as declared to the model (pi 1.6 system messages). */
export interface ToolDeclaration extends Loose {
  name: string;
  description?: string;
  parameters?: unknown;
}

/**
 * pi 1.6: the prompt and tool loadout as messages. Replayed in order: `content` texts are
 * joined, `sections` patch by name (null removes one), `toolsRemoved` then `toolsAdded` by name.
 */
export interface SystemMessage extends Loose {
  role: "system";
  content: string | TextContent[];
  sections?: Record<string, string | null>;
  toolsAdded?: ToolDeclaration[];
  toolsRemoved?: { name: string }[];
  timestamp: number;
}

/** pi 1.6: calls made from inside one tool call (e.g. a code-mode script), on its result. */
export interface NestedCalls extends Loose {
  calls?: { name: string; arguments?: Record<string, unknown> }[];
}

export interface ToolResultMessage extends Loose {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: ToolResultContentBlock[];
  details?: unknown;
  isError: boolean;
  nestedCalls?: NestedCalls;
  timestamp: number;
}

export interface BashExecutionMessage extends Loose {
  role: "bashExecution";
  command: string;
  output: string;
  exitCode: number | null | undefined;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
  excludeFromContext?: boolean;
  timestamp: number;
}

export interface CustomMessage extends Loose {
  role: "custom";
  customType: string;
  content: string | UserContentBlock[];
  display: boolean;
  details?: unknown;
  timestamp: number;
}

/** Made while building the context; pi never stores them but readers accept them. */
export interface BranchSummaryMessage extends Loose {
  role: "branchSummary";
  summary: string;
  fromId: string;
  timestamp: number;
}

export interface CompactionSummaryMessage extends Loose {
  role: "compactionSummary";
  summary: string;
  tokensBefore: number;
  timestamp: number;
}

export type AgentMessage =
  | SystemMessage
  | UserMessage
  | AssistantMessage
  | ToolResultMessage
  | BashExecutionMessage
  | CustomMessage
  | BranchSummaryMessage
  | CompactionSummaryMessage;

export type MessageRole = AgentMessage["role"];

// ---------------------------------------------------------------------------
// Header and entries
// ---------------------------------------------------------------------------

export interface SessionHeader extends Loose {
  type: "session";
  version?: number;
  id: string;
  timestamp: string;
  cwd: string;
  parentSession?: string;
}

interface EntryBase extends Loose {
  id: string;
  parentId: string | null;
  /** ISO string */
  timestamp: string;
}

export interface MessageEntry extends EntryBase {
  type: "message";
  message: AgentMessage;
}

export interface ModelChangeEntry extends EntryBase {
  type: "model_change";
  provider: string;
  modelId: string;
}

export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

export interface ThinkingLevelChangeEntry extends EntryBase {
  type: "thinking_level_change";
  thinkingLevel: ThinkingLevel | string;
}

export interface ActiveToolsChangeEntry extends EntryBase {
  type: "active_tools_change";
  activeToolNames: string[];
}

/** Written by Cutpoint before 2026-12 (pi has no such type): a trailing one moves the leaf. */
export interface LeafEntry extends EntryBase {
  type: "leaf";
  targetId: string | null;
}

/** pi 1.6: model-attributed usage outside the context (e.g. cache warming). */
export interface UsageEntry extends EntryBase {
  type: "usage";
  kind: string;
  provider: string;
  model: string;
  usage: Usage;
  note?: string;
}

/** The content a context edit puts in place of its target's content. */
export interface ContextReplacement extends Loose {
  content: string | (TextContent | ImageContent)[];
}

/**
 * pi 1.6: an append-only edit of an earlier context entry on the same branch. `null` omits the
 * target from the context; otherwise the target's content is replaced. The latest edit wins.
 */
export interface ContextEditEntry extends EntryBase {
  type: "context_edit";
  targetId: string;
  replacement: ContextReplacement | null;
}

/** Default summarizer details; opaque when fromHook is true. */
export interface FileListDetails {
  readFiles: string[];
  modifiedFiles: string[];
}

export interface CompactionEntry extends EntryBase {
  type: "compaction";
  summary: string;
  /** Unset only after a v1 migration whose index pointed nowhere. */
  firstKeptEntryId: string | undefined;
  tokensBefore: number;
  details?: unknown;
  fromHook?: boolean;
  /** pi 1.6: the replayed prompt and tools at the boundary; leads the compacted context. */
  systemMessage?: SystemMessage;
  /** pi 1.6: the summarizer's usage. */
  usage?: Usage;
}

export interface BranchSummaryEntry extends EntryBase {
  type: "branch_summary";
  /** pi 1.6 writes the leaf that was left ("root" when none); older Cutpoint wrote the new leaf. */
  fromId: string;
  summary: string;
  details?: unknown;
  fromHook?: boolean;
  usage?: Usage;
}

export interface CustomEntry extends EntryBase {
  type: "custom";
  customType: string;
  data?: unknown;
}

export interface CustomMessageEntry extends EntryBase {
  type: "custom_message";
  customType: string;
  content: string | UserContentBlock[];
  display: boolean;
  details?: unknown;
}

export interface LabelEntry extends EntryBase {
  type: "label";
  targetId: string;
  label?: string;
}

export interface SessionInfoEntry extends EntryBase {
  type: "session_info";
  name?: string;
}

/** An entry of a type this version does not know; kept as is. */
export interface UnknownEntry extends EntryBase {
  type: string;
}

export type KnownEntry =
  | MessageEntry
  | ModelChangeEntry
  | ThinkingLevelChangeEntry
  | ActiveToolsChangeEntry
  | LeafEntry
  | UsageEntry
  | ContextEditEntry
  | CompactionEntry
  | BranchSummaryEntry
  | CustomEntry
  | CustomMessageEntry
  | LabelEntry
  | SessionInfoEntry;

export type KnownEntryType = KnownEntry["type"];

export const KNOWN_ENTRY_TYPES: readonly KnownEntryType[] = [
  "message",
  "model_change",
  "thinking_level_change",
  "active_tools_change",
  "leaf",
  "usage",
  "context_edit",
  "compaction",
  "branch_summary",
  "custom",
  "custom_message",
  "label",
  "session_info",
];

/**
 * Any entry of a session. Narrow with `isEntryOfType` / the guards below: TypeScript cannot
 * discriminate a union that includes an open `type: string` member.
 */
export type SessionEntry = KnownEntry | UnknownEntry;

export function isEntryOfType<T extends KnownEntryType>(
  entry: SessionEntry,
  type: T,
): entry is Extract<KnownEntry, { type: T }> {
  return entry.type === type;
}

export const isMessageEntry = (e: SessionEntry): e is MessageEntry => e.type === "message";
export const isCompactionEntry = (e: SessionEntry): e is CompactionEntry => e.type === "compaction";
export const isBranchSummaryEntry = (e: SessionEntry): e is BranchSummaryEntry => e.type === "branch_summary";
export const isCustomMessageEntry = (e: SessionEntry): e is CustomMessageEntry => e.type === "custom_message";
export const isLabelEntry = (e: SessionEntry): e is LabelEntry => e.type === "label";
export const isLeafEntry = (e: SessionEntry): e is LeafEntry => e.type === "leaf";
export const isContextEditEntry = (e: SessionEntry): e is ContextEditEntry => e.type === "context_edit";
export const isSessionInfoEntry = (e: SessionEntry): e is SessionInfoEntry => e.type === "session_info";

/** A whole session in memory: header plus entries in file order. */
export interface Session {
  header: SessionHeader;
  entries: SessionEntry[];
}
