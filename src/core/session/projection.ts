/**
 * What each entry of a path contributes to the model's context (docs/session-format.md §8): its
 * messages, with the latest `context_edit` for it applied, and the projection of a whole path
 * (the latest compaction first, its kept range without system messages, then what follows).
 * Synthesized and edited messages are cached per entry object, so that token estimates (cached
 * per message object) survive re-planning. Pure and linear in the path length.
 */
import { objectMemo } from "./object-memo.ts";
import { runSteps, type Steps } from "./steps.ts";
import type {
  AgentMessage,
  BranchSummaryMessage,
  CompactionEntry,
  CompactionSummaryMessage,
  ContextEditEntry,
  CustomMessage,
  SessionEntry,
  SystemMessage,
  UserContentBlock,
} from "./types.ts";

/** ISO timestamp -> ms since epoch; 0 when unparseable (never reads the clock). */
export function entryTimeMs(entry: SessionEntry): number {
  const t = typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : Number.NaN;
  return Number.isFinite(t) ? t : 0;
}

const NO_MESSAGES: readonly AgentMessage[] = Object.freeze([]);
/** Each entry's messages (object-memo.ts: not a WeakMap, which made full GCs pause on 90k entries). */
const synthesized = objectMemo<readonly AgentMessage[]>("entry-messages");

function asContent(value: unknown): string | UserContentBlock[] {
  return typeof value === "string" || Array.isArray(value) ? (value as string | UserContentBlock[]) : [];
}

/**
 * A `message` entry's stored message when it can be used as it is (it has content): the same
 * object every time, with no list made or cached for it. Undefined for any other entry.
 */
export function ownMessage(entry: SessionEntry): AgentMessage | undefined {
  if (entry.type !== "message") return undefined;
  const m = (entry as { message?: { content?: unknown } }).message;
  return m && typeof m === "object" && m.content != null ? (m as AgentMessage) : undefined;
}

/** The stored message of a `message` entry, with a missing content read as empty (as pi does). */
function storedMessage(entry: SessionEntry): AgentMessage | undefined {
  const own = ownMessage(entry);
  if (own) return own;
  const m = (entry as { message?: unknown }).message;
  if (!m || typeof m !== "object") return undefined;
  const message = m as AgentMessage;
  switch (message.role) {
    case "system":
      return { ...message, content: "" };
    case "user":
    case "assistant":
    case "toolResult":
      return { ...message, content: [] } as AgentMessage;
    default:
      return message;
  }
}

function synthesize(entry: SessionEntry): readonly AgentMessage[] {
  const e = entry as Record<string, unknown>;
  const timestamp = entryTimeMs(entry);
  switch (entry.type) {
    case "custom_message": {
      const custom: CustomMessage = {
        role: "custom",
        customType: typeof e.customType === "string" ? e.customType : "",
        content: asContent(e.content),
        display: e.display !== false,
        timestamp,
      };
      if (e.details !== undefined) custom.details = e.details;
      return [custom];
    }
    case "branch_summary": {
      if (typeof e.summary !== "string" || e.summary === "") return NO_MESSAGES;
      const branch: BranchSummaryMessage = {
        role: "branchSummary",
        summary: e.summary,
        fromId: typeof e.fromId === "string" ? e.fromId : "root",
        timestamp,
      };
      return [branch];
    }
    case "compaction": {
      const summary: CompactionSummaryMessage = {
        role: "compactionSummary",
        summary: typeof e.summary === "string" ? e.summary : "",
        tokensBefore: typeof e.tokensBefore === "number" ? e.tokensBefore : 0,
        timestamp,
      };
      const system = (entry as CompactionEntry).systemMessage;
      return system && typeof system === "object" ? [system as SystemMessage, summary] : [summary];
    }
    default:
      return NO_MESSAGES;
  }
}

/**
 * The messages an entry contributes when it is in the context, before edits: a `message` entry's
 * message; a custom message; a branch summary with a non-empty summary; a compaction's system
 * checkpoint (when it has one) and summary. Every other entry type contributes nothing.
 */
export function entryMessages(entry: SessionEntry): readonly AgentMessage[] {
  if (entry.type === "message") {
    const hit = synthesized.get(entry);
    if (hit) return hit;
    const m = storedMessage(entry);
    const out = m ? [m] : NO_MESSAGES;
    synthesized.set(entry, out);
    return out;
  }
  if (entry.type !== "custom_message" && entry.type !== "branch_summary" && entry.type !== "compaction")
    return NO_MESSAGES;
  const hit = synthesized.get(entry);
  if (hit) return hit;
  const out = synthesize(entry);
  synthesized.set(entry, out);
  return out;
}

/** True for a `message` entry holding a system message (prompt state, not conversation). */
export function isSystemMessageEntry(entry: SessionEntry): boolean {
  return entry.type === "message" && (entry as { message?: { role?: unknown } }).message?.role === "system";
}

const EDITABLE_ROLES = new Set(["user", "assistant", "toolResult", "custom"]);
const edited = new WeakMap<ContextEditEntry, WeakMap<SessionEntry, readonly AgentMessage[]>>();

/** The messages of an entry with an edit applied: null omits it; otherwise its content is replaced. */
export function projectEntry(
  entry: SessionEntry,
  edit: ContextEditEntry | undefined,
): readonly AgentMessage[] {
  const messages = entryMessages(entry);
  if (!edit) return messages;
  if (edit.replacement === null) return NO_MESSAGES;
  let perEdit = edited.get(edit);
  const hit = perEdit?.get(entry);
  if (hit) return hit;
  const content = (edit.replacement as { content?: unknown } | undefined)?.content;
  const out = messages.map((m) => {
    if (!EDITABLE_ROLES.has(m.role)) return m;
    const arrayRole = m.role === "assistant" || m.role === "toolResult";
    const next = arrayRole && typeof content === "string" ? [{ type: "text", text: content }] : content;
    return { ...m, content: next ?? [] } as AgentMessage;
  });
  if (!perEdit) {
    perEdit = new WeakMap();
    edited.set(edit, perEdit);
  }
  perEdit.set(entry, out);
  return out;
}

/** The latest edit per target among `entries` (file or path order: the later one wins). */
export function latestEdits(entries: readonly SessionEntry[]): Map<string, ContextEditEntry> {
  const edits = new Map<string, ContextEditEntry>();
  for (const e of entries) {
    if (e.type === "context_edit" && typeof (e as ContextEditEntry).targetId === "string")
      edits.set((e as ContextEditEntry).targetId, e as ContextEditEntry);
  }
  return edits;
}

export interface ProjectedEntry {
  entry: SessionEntry;
  /** Index of the entry on the path. */
  pathIndex: number;
  messages: readonly AgentMessage[];
}

/** Index of the latest compaction on the path, -1 when none. */
export function latestCompactionIndex(path: readonly SessionEntry[]): number {
  for (let i = path.length - 1; i >= 0; i--) if (path[i]!.type === "compaction") return i;
  return -1;
}

/**
 * Where the latest compaction's kept range starts on the path: the position of its
 * firstKeptEntryId before it, or -1 when that id is not there (a retain-none compaction names
 * itself: nothing is kept).
 */
export function keptStartIndex(path: readonly SessionEntry[], compactionIndex: number): number {
  if (compactionIndex < 0) return -1;
  const id = (path[compactionIndex] as CompactionEntry).firstKeptEntryId;
  if (typeof id !== "string") return -1;
  for (let i = 0; i < compactionIndex; i++) if (path[i]!.id === id) return i;
  return -1;
}

/**
 * The projection of a path (root first): without a compaction, every entry; with one, the latest
 * compaction first, then the entries of its kept range except system messages, then every entry
 * after it. Entries that contribute nothing stay in the list (with no messages), as the cut
 * rules need them; an older compaction inside the kept range contributes nothing.
 */
export function projectPath(path: readonly SessionEntry[]): ProjectedEntry[] {
  return runSteps(projectPathSteps(path));
}

/** Entries projected per step of `projectPathSteps`. */
const PROJECT_STEP = 4096;

/** `projectPath` as steps of PROJECT_STEP entries (core/session/steps.ts), for a caller that slices it. */
export function* projectPathSteps(path: readonly SessionEntry[]): Steps<ProjectedEntry[]> {
  const order: number[] = [];
  const lc = latestCompactionIndex(path);
  if (lc < 0) {
    for (let i = 0; i < path.length; i++) order.push(i);
  } else {
    order.push(lc);
    const kept = keptStartIndex(path, lc);
    if (kept >= 0) for (let i = kept; i < lc; i++) if (!isSystemMessageEntry(path[i]!)) order.push(i);
    for (let i = lc + 1; i < path.length; i++) order.push(i);
  }
  // Edits apply from the projection only (pi reads them from the entries it selected).
  const edits = latestEdits(order.map((i) => path[i]!));
  const out: ProjectedEntry[] = [];
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const entry = path[i]!;
    const edit = edits.get(entry.id);
    const messages =
      i === lc
        ? entryMessages(entry)
        : entry.type === "compaction"
          ? NO_MESSAGES
          : edit
            ? projectEntry(entry, edit)
            : uncachedMessages(entry);
    out.push({ entry, pathIndex: i, messages });
    if ((k + 1) % PROJECT_STEP === 0) yield;
  }
  return out;
}

/**
 * `entryMessages` without filling its cache for a message entry that holds its own message (a new
 * one-element list unless the entry is cached already): opening a session projects its path once,
 * and on a 100 MB session 90k cache entries cost more than building the whole context. The
 * messages are the same objects either way.
 */
export function uncachedMessages(entry: SessionEntry): readonly AgentMessage[] {
  if (entry.type === "message") {
    const hit = synthesized.get(entry);
    if (hit) return hit;
    const own = ownMessage(entry);
    if (own) return [own];
  }
  return entryMessages(entry);
}
