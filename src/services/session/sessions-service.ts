/**
 * Session actions of the session list: new, example, rename, delete (with undo), export.
 * Appends go through src/db's appendAtLeaf like every other writer's.
 */
import { distinctName, isRename, sessionInfoEntry, sessionTitle } from "../../core/session/session-name.ts";
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "../../core/session/types.ts";
import {
  appendAtLeaf,
  type CutpointDb,
  exportSessionBlob,
  fail,
  listDeletedSessions,
  listSessions,
  markOwner,
  PAGE_ID,
  prepareSession,
  purgeDeleted,
  type Result,
  restoreSession,
  type SessionRow,
  saveSession,
  softDeleteSession,
} from "../../db/index.ts";
import { defaultLockQuery, type LockQuery, lockHeld } from "../agent/session-run.ts";
import { newEntryId, newSessionId } from "../common/ids.ts";
import type { SessionHandover } from "./session-handover.ts";

export const DELETE_WHILE_RUNNING =
  "Not deleted: this session is running in another tab (its reply is still being written there). Delete it when that run has finished.";

export const DEFAULT_CWD = "/workspace";
export const EXAMPLE_URL = "examples/example-session.jsonl";
/**
 * The examples: "tour" (short, with a compaction already made, branches, labels) and "compaction"
 * (~120 entries and ~48k tokens: at the default settings, keep 20,000, it has a compaction to review).
 */
export const EXAMPLES = {
  tour: { url: EXAMPLE_URL, file: "example-session.jsonl" },
  compaction: { url: "examples/compaction-example.jsonl", file: "compaction-example.jsonl" },
} as const;
export type ExampleKind = keyof typeof EXAMPLES;
/** Soft-deleted sessions are purged this long after deletion (or on the next start). */
export const UNDO_WINDOW_MS = 10_000;

export function emptyHeader(now = new Date(), id = newSessionId()): SessionHeader {
  return {
    type: "session",
    version: CURRENT_SESSION_VERSION,
    id,
    timestamp: now.toISOString(),
    cwd: DEFAULT_CWD,
  };
}

/** A new session with no entries. */
export async function createEmptySession(db: CutpointDb, now = new Date()): Promise<Result<SessionRow>> {
  return saveSession(db, prepareSession(emptyHeader(now), []), "new", now.getTime());
}

/** What the session list shows for each stored session (new sessions are named apart from these). */
export async function sessionTitles(db: CutpointDb): Promise<string[]> {
  return (await listSessions(db)).map(sessionTitle);
}

/**
 * Loads the bundled example session. Each click makes a fresh copy (new session id), so the
 * example can be explored and changed freely; a copy while another is listed gets a name of its
 * own ("… (2)": a session_info entry after the example's last, as a rename writes).
 */
export async function loadExampleSession(
  db: CutpointDb,
  fetchText: (url: string) => Promise<string> = async (url) => {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return res.text();
  },
  kind: ExampleKind = "tour",
): Promise<Result<SessionRow, { message: string }>> {
  let text: string;
  try {
    text = await fetchText(EXAMPLES[kind].url);
  } catch (e) {
    return { ok: false, error: { message: `Could not load the example: ${(e as Error).message}` } };
  }
  // The parser is the import's (a chunk of its own, not in the initial JS).
  const { prepareImport } = await import("../import/import-prepare.ts");
  const parsed = prepareImport(EXAMPLES[kind].file, text, { keepEntries: true });
  if (!parsed.ok) return { ok: false, error: { message: parsed.error.message } };
  const prepared = parsed.value.prepared;
  const header = { ...prepared.header, id: newSessionId() };
  const title = sessionTitle(prepared.meta);
  const name = distinctName(title, await sessionTitles(db));
  if (name === title) return saveSession(db, { ...prepared, header }, "new");
  const entries = parsed.value.entries ?? [];
  const ids = new Set(entries.map((e) => e.id));
  const info = sessionInfoEntry(newEntryId(ids), prepared.meta.leafId, new Date().toISOString(), name);
  return saveSession(db, prepareSession(header, [...entries, info]), "new");
}

/**
 * Renames by appending a `session_info` entry as a child of the stored leaf (it becomes the leaf),
 * in one transaction with reading that leaf and the stored name: the same name (spaces aside) is
 * no rename and appends nothing. Refused while the session runs (here or in another tab), so a
 * rename never lands between a run's entries.
 */
export function renameSession(
  db: CutpointDb,
  sessionId: string,
  name: string,
  now = new Date(),
): Promise<Result<SessionRow>> {
  return appendAtLeaf(db, sessionId, { now }, (row, at): SessionEntry | undefined =>
    isRename(row.name, name) ? sessionInfoEntry(newEntryId(), row.leafId, at.toISOString(), name) : undefined,
  );
}

/**
 * Marks the session deleted (hidden from the list, entries kept): `undoDelete` brings it back
 * until `deletedAt` + UNDO_WINDOW_MS, also after a reload; `purgeExpired` removes it after that.
 */
export async function deleteSession(
  db: CutpointDb,
  sessionId: string,
  now = Date.now(),
  options: { queryLocks?: LockQuery | null; owner?: string; handover?: SessionHandover } = {},
): Promise<Result<{ deletedAt: number }>> {
  // Refused like every other write while another tab runs it (a mark whose lock nobody holds
  // was left by a closed or crashed tab: it does not stand in the way).
  const row = await db.sessions.get(sessionId);
  const mark = row?.runOwner;
  if (mark && markOwner(mark) !== (options.owner ?? PAGE_ID)) {
    const query = options.queryLocks === undefined ? defaultLockQuery() : options.queryLocks;
    if (await lockHeld(query, sessionId)) return fail("busy", DELETE_WHILE_RUNNING);
  }
  const r = await softDeleteSession(db, sessionId, now);
  if (r.ok) options.handover?.forget(sessionId);
  return r.ok ? { ok: true, value: { deletedAt: now } } : r;
}

export async function undoDelete(db: CutpointDb, sessionId: string): Promise<Result<void>> {
  return restoreSession(db, sessionId);
}

export async function purgeExpired(db: CutpointDb, now = Date.now()): Promise<number> {
  return purgeDeleted(db, now - UNDO_WINDOW_MS);
}

/** A deleted session whose Undo window is still open (also after a reload). */
export interface PendingDelete {
  row: SessionRow;
  /** ms since epoch when Undo ends and the session is purged. */
  undoUntil: number;
}

export async function pendingDeletes(db: CutpointDb, now = Date.now()): Promise<PendingDelete[]> {
  const rows = await listDeletedSessions(db);
  return rows
    .map((row) => ({ row, undoUntil: row.deletedAt + UNDO_WINDOW_MS }))
    .filter((p) => p.undoUntil > now);
}

/**
 * The v3 file of a session as a Blob (built from the stored chunks), named as pi names the session
 * plus the time of the export, so that the exports of two versions never share a name.
 */
export async function exportSessionFile(
  db: CutpointDb,
  sessionId: string,
  exportedAt = new Date(),
): Promise<Result<{ fileName: string; blob: Blob }>> {
  const r = await exportSessionBlob(db, sessionId, exportedAt);
  if (!r.ok) return r;
  return { ok: true, value: { fileName: r.value.fileName, blob: r.value.blob } };
}
