/** Rules of a session's name (its latest session_info entry): what a rename changes, distinct names, titles. */
import type { SessionInfoEntry } from "./types.ts";

/** The name as stored and compared: trimmed, "" = no name. */
function norm(name: string | undefined): string {
  return (name ?? "").trim();
}

/** Whether renaming a session named `stored` to `wanted` changes its name (spaces aside; "" clears). */
export function isRename(stored: string | undefined, wanted: string): boolean {
  return norm(stored) !== norm(wanted);
}

/** What the session list shows for a session: its name, else its first message, else "Untitled session". */
export function sessionTitle(row: { name?: string | undefined; firstUserMessage: string }): string {
  return row.name || row.firstUserMessage || "Untitled session";
}

/**
 * `base`, or `base (2)`, `base (3)`, … : the first that none of `taken` (the titles of the sessions
 * shown) has, so a person can tell a new session from the ones already listed.
 */
export function distinctName(base: string, taken: Iterable<string>): string {
  const names = new Set<string>();
  for (const t of taken) names.add(norm(t));
  const stem = norm(base);
  if (!names.has(stem)) return stem;
  let n = 2;
  while (names.has(`${stem} (${n})`)) n++;
  return `${stem} (${n})`;
}

/** The name a fork gets: "Fork of <the parent's title>". */
export function forkName(parentTitle: string): string {
  return `Fork of ${norm(parentTitle)}`;
}

/** The entry that names a session (as pi writes it): a child of `parentId`, the name trimmed. */
export function sessionInfoEntry(
  id: string,
  parentId: string | null,
  timestamp: string,
  name: string,
): SessionInfoEntry {
  return { type: "session_info", id, parentId, timestamp, name: norm(name) };
}
