/**
 * The guarded append every writer of a session uses: read the session's row and append what the
 * caller builds on its stored leaf, in ONE transaction, refusing when the leaf is not the one the
 * caller's view was built on (a message or a move since, perhaps in another tab).
 */

import type { SessionEntry } from "../core/session/types.ts";
import { fail, ok, type Result, toDbError } from "./result.ts";
import type { CutpointDb, SessionRow } from "./schema.ts";
import { appendEntries, getSession } from "./sessions-repo.ts";

export interface AppendAtLeafOptions {
  now?: Date;
  /** The leaf the caller planned on; unchecked when undefined. */
  expectedLeafId?: string | null;
}

export const LEAF_MOVED_MESSAGE =
  "The session changed since this view was drawn (a new message or a move, perhaps in another tab). Nothing was written; look again and retry.";

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
    return await db.transaction("rw", db.sessions, db.chunks, async () => {
      const row = await getSession(db, sessionId);
      if (!row) return fail("not-found", "The session no longer exists.");
      if (options.expectedLeafId !== undefined && row.leafId !== options.expectedLeafId)
        return fail("conflict", LEAF_MOVED_MESSAGE);
      const built = build(row, now);
      const entries = built === undefined ? [] : Array.isArray(built) ? built : [built as SessionEntry];
      return entries.length > 0 ? appendEntries(db, sessionId, entries, now.getTime()) : ok(row);
    });
  } catch (e) {
    return toDbError(e);
  }
}
