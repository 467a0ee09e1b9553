/**
 * Who may write a session while a run is going on. A tab that runs a session (it holds the Web
 * Lock, services/agent/session-run.ts) marks the session row with `runOwner`; every append checks the
 * mark in its transaction: a write from another page is refused, and so is a write from this page
 * that is not the run's own while its agent loop is writing. A mark left by a closed or crashed
 * tab is cleared by whoever finds the run's lock free (`clearRunMark`).
 */
import { randomUuid } from "./random-id.ts";
import { type DbError, fail, ok, type Result, toDbError } from "./result.ts";
import type { CutpointDb, SessionRow } from "./schema.ts";

/** This page (one tab's life: a reload is a new page). */
export const PAGE_ID = randomUuid();

export const RUNNING_ELSEWHERE_WRITE =
  "This session is running in another tab. Nothing was written; try again when the run there has finished.";
export const RUNNING_HERE_WRITE =
  "A reply is being written in this session. Nothing was written; try again when the run has finished (or stop it).";

/** The writer of a session followed from a file pi writes: only the follow appends to it. */
export const FOLLOW_WRITER = "follow";
export const FOLLOWED_WRITE =
  "pi is writing this session and Cutpoint follows it: nothing was written. To compact or edit it, work on a copy (in the banner above the session), or stop following.";

/** The owner part of a run mark (`<owner>#<run>`). */
export const markOwner = (mark: string): string => mark.split("#")[0] ?? mark;

/** A write's identity: the page (or test "tab") it comes from and, for a run's appends, its mark. */
export interface Writer {
  owner?: string;
  run?: string;
}

/** Null when `writer` may append to `row` now, else the refusal. */
export function writeRefusal(
  db: CutpointDb,
  row: SessionRow,
  writer: Writer = {},
): { ok: false; error: DbError } | null {
  if (row.followedFrom !== undefined && writer.run !== FOLLOW_WRITER) return fail("busy", FOLLOWED_WRITE);
  const mark = row.runOwner;
  if (!mark) return null;
  if (writer.run === mark) return null;
  if (markOwner(mark) !== (writer.owner ?? PAGE_ID)) return fail("busy", RUNNING_ELSEWHERE_WRITE);
  if (db.page.loops.get(row.id) === mark) return fail("busy", RUNNING_HERE_WRITE);
  return null;
}

/** Marks the session as run by `owner` (the caller holds the session's lock). Returns the mark. */
export async function setRunMark(
  db: CutpointDb,
  sessionId: string,
  owner = PAGE_ID,
): Promise<Result<string>> {
  const mark = `${owner}#${randomUuid()}`;
  try {
    const n = await db.sessions.update(sessionId, { runOwner: mark });
    return n ? ok(mark) : fail("not-found", "The session no longer exists.");
  } catch (e) {
    return toDbError(e);
  }
}

/** Removes `mark` (only that one: a newer run's mark stays). */
export async function clearRunMark(db: CutpointDb, sessionId: string, mark: string): Promise<void> {
  db.page.loops.delete(sessionId);
  try {
    await db.transaction("rw", db.sessions, async () => {
      const row = await db.sessions.get(sessionId);
      if (row?.runOwner === mark) await db.sessions.update(sessionId, { runOwner: undefined });
    });
  } catch {
    // the next run overwrites it; a reader clears it when the lock is free
  }
}

/** While the agent loop of the run `mark` writes, other writes from this page are refused. */
export function setLoopActive(db: CutpointDb, sessionId: string, mark: string | null): void {
  if (mark === null) db.page.loops.delete(sessionId);
  else db.page.loops.set(sessionId, mark);
}

/** Marks a session as followed from a file (`from`: the file's path in the folder), or not (undefined). */
export async function setFollowedFrom(
  db: CutpointDb,
  sessionId: string,
  from: string | undefined,
): Promise<Result<void>> {
  try {
    const n = await db.sessions.update(sessionId, { followedFrom: from });
    return n ? ok(undefined) : fail("not-found", "The session no longer exists.");
  } catch (e) {
    return toDbError(e);
  }
}
