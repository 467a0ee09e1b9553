/**
 * The compaction engine's view of what an entry contributes (docs/session-format.md §8, §10):
 * its main message, and which contributions make a valid cut point or start a turn. The
 * messages themselves come from session/projection.ts (one conversion for the whole app).
 */
import { entryMessages, ownMessage } from "../session/projection.ts";
import type { AgentMessage, SessionEntry } from "../session/types.ts";
import { type Estimator, PI_ESTIMATOR } from "./tokens.ts";

/** True for entries that can enter the context: message, custom_message, non-empty branch_summary, compaction. */
export function isContextEntry(entry: SessionEntry): boolean {
  if (entry.type === "message") return entryMessage(entry) !== undefined;
  return entryMessages(entry).length > 0;
}

/**
 * The message an entry is shown and summarized as: a `message` entry's message, a custom message,
 * a branch summary, a compaction's summary (not its system checkpoint); undefined otherwise.
 */
export function entryMessage(entry: SessionEntry): AgentMessage | undefined {
  const own = ownMessage(entry);
  if (own) return own;
  const messages = entryMessages(entry);
  return messages[messages.length - 1];
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
const TURN_ROLES = new Set(["user", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

/** §10: contributions that make a valid cut point (never a tool result: it stays with its call). */
export function hasCutPointMessage(messages: readonly AgentMessage[]): boolean {
  for (const m of messages) if (CUT_ROLES.has(m.role)) return true;
  return false;
}

/** §10: contributions that start a turn (user-like: a person's message, a bash run, a custom message, a summary). */
export function hasTurnStartMessage(messages: readonly AgentMessage[]): boolean {
  for (const m of messages) if (TURN_ROLES.has(m.role)) return true;
  return false;
}

/** §10: an entry that is a valid cut point as stored (no edits applied; compactions never are). */
export function isValidCutPoint(entry: SessionEntry): boolean {
  return entry.type !== "compaction" && hasCutPointMessage(entryMessages(entry));
}

/** §10: an entry that starts a turn as stored (no edits applied; compactions never do). */
export function isTurnStart(entry: SessionEntry): boolean {
  return entry.type !== "compaction" && hasTurnStartMessage(entryMessages(entry));
}

/**
 * Fills the estimator's per-message cache for `entries[from..to)`: what the timeline, the meter and
 * the planner read next (a session being read or imported is estimated as its entries arrive).
 */
export function estimateEntries(
  entries: readonly SessionEntry[],
  from = 0,
  to = entries.length,
  estimator: Estimator = PI_ESTIMATOR,
): void {
  for (let i = from; i < to; i++) {
    const message = entryMessage(entries[i]!);
    if (message) estimator.estimateMessage(message);
  }
}
