/**
 * The guarded append every writer of a session uses: read the session's row and append what the
 * caller builds on its stored leaf, in ONE transaction, refusing when the leaf is not the one the
 * caller's view was built on (a message or a move since, perhaps in another tab), and while the
 * session is being run by another tab or by this page's agent loop (run-gate.ts).
 */

import type { SessionEntry } from "../core/session/types.ts";
import { type DbError, fail, ok, type Result, toDbError } from "./result.ts";
import { markOwner, PAGE_ID, type Writer } from "./run-gate.ts";
import type { CutpointDb, RunLiveness, SessionRow } from "./schema.ts";
import { appendEntries, getSession } from "./sessions-repo.ts";

export interface AppendAtLeafOptions {
  now?: Date;
  /** The leaf the caller planned on; unchecked when undefined. */
  expectedLeafId?: string | null;
  /** Who writes (a run passes its mark); defaults to this page, not a run. */
  writer?: Writer;
  /** Also removes the session's reply checkpoint (the reply it held is being appended or dropped). */
  dropCheckpoint?: boolean;
}

export const LEAF_MOVED_MESSAGE =
  "The session changed since this view was drawn (a new message or a move, perhaps in another tab). Nothing was written; look again and retry.";

/** Lets appends clear the run mark of a tab that closed or crashed mid-run (services register navigator.locks). */
export function setRunLiveness(db: CutpointDb, fn: RunLiveness | null): void {
  db.page.runLive = fn;
}

/** Clears the row's run mark when it is another page's and no tab holds the run's lock. */
export async function clearStaleRunMark(db: CutpointDb, sessionId: string, owner = PAGE_ID): Promise<void> {
  const row = await db.sessions.get(sessionId);
  const mark = row?.runOwner;
  const runLive = db.page.runLive;
  if (!mark || !runLive || markOwner(mark) === owner) return;
  if (await runLive(sessionId)) return;
  // The lock is free: the tab that marked it is gone (a live run holds it from mark to unmark).
  await db.transaction("rw", db.sessions, async () => {
    const now = await db.sessions.get(sessionId);
    if (now?.runOwner === mark) await db.sessions.update(sessionId, { runOwner: undefined });
  });
}

/**
 * Appends the entries `build` makes of the stored row (their parent is the stored leaf). `build`
 * returns nothing to write nothing (the row is returned as it is).
 */
export async function appendAtLeaf(
  db: CutpointDb,
  sessionId: string,
  options: AppendAtLeafOptions,
  build: (row: SessionRow, now: Date) => SessionEntry | readonly SessionEntry[] | undefined,
): Promise<Result<SessionRow>> {
  const now = options.now ?? new Date();
  try {
    if (!options.writer?.run) await clearStaleRunMark(db, sessionId, options.writer?.owner);
    return await db.transaction("rw", db.sessions, db.chunks, db.replyCheckpoints, async () => {
      const row = await getSession(db, sessionId);
      if (!row) return fail("not-found", "The session no longer exists.");
      if (options.expectedLeafId !== undefined && row.leafId !== options.expectedLeafId)
        return fail("conflict", LEAF_MOVED_MESSAGE);
      const built = build(row, now);
      const entries = built === undefined ? [] : Array.isArray(built) ? built : [built as SessionEntry];
      if (entries.length === 0) return ok(row);
      const r = await appendEntries(db, sessionId, entries, now.getTime(), options.writer);
      // A failed append aborts this transaction too, with the append's own error.
      if (!r.ok) throw new Refused(r);
      if (options.dropCheckpoint) await db.replyCheckpoints.delete(sessionId);
      return r;
    });
  } catch (e) {
    return e instanceof Refused ? e.result : toDbError(e);
  }
}

class Refused extends Error {
  constructor(readonly result: { ok: false; error: DbError }) {
    super(result.error.message);
  }
}
