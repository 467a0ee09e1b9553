/** Remembers the last session opened (in the given Storage) so that the app reopens it after a reload or a visit to "/". */
import type { CutpointDb } from "../../db/index.ts";

const KEY = "cutpoint:last-session";

/** Notes `id` as the session to reopen (undefined: none, e.g. after the person closed it). */
export function rememberOpenSession(
  storage: Pick<Storage, "setItem" | "removeItem">,
  id: string | undefined,
): void {
  try {
    if (id) storage.setItem(KEY, id);
    else storage.removeItem(KEY);
  } catch {
    // Storage refused (private mode, quota): the hash still reopens it on a plain reload.
  }
}

/** The session to reopen, if it is still stored and not deleted. */
export async function sessionToReopen(
  db: CutpointDb,
  storage: Pick<Storage, "getItem">,
): Promise<string | undefined> {
  let id: string | null = null;
  try {
    id = storage.getItem(KEY);
  } catch {
    return undefined;
  }
  if (!id) return undefined;
  const row = await db.sessions.get(id).catch(() => undefined);
  return row && !row.deletedAt ? id : undefined;
}
