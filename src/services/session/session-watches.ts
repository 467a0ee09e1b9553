/** The live reads of stored sessions the UI shows: the list, how many there are, a fork's parent. */
import type { CutpointDb, SessionRow } from "../../db/index.ts";
import { listSessions } from "../../db/sessions-repo.ts";
import { type Live, live } from "../common/live.ts";

/** The sessions not deleted, the last changed first (metadata only). */
export function watchSessionList(db: CutpointDb): Live<SessionRow[]> {
  return live(() => listSessions(db));
}

/** How many sessions are stored and not deleted. */
export function watchSessionCount(db: CutpointDb): Live<number> {
  return live(() => db.sessions.where("deletedAt").equals(0).count());
}

/** How many session rows there are, deleted ones too: changes whenever storage use may have. */
export function watchStoredRowCount(db: CutpointDb): Live<number> {
  return live(() => db.sessions.count());
}

/** The session `parentId` names when it is stored and not deleted, else null (also when it is `selfId`). */
export function watchForkParent(
  db: CutpointDb,
  parentId: string | undefined,
  selfId: string | undefined,
): Live<SessionRow | null> {
  return live(async () => {
    if (!parentId || parentId === selfId) return null;
    const r = await db.sessions.get(parentId);
    return r && !r.deletedAt ? r : null;
  });
}
