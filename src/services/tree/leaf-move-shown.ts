/**
 * A leaf move shown at once: the move entry is built, shown through the tab's pending-entries
 * channel, then written; a write that fails (the leaf moved meanwhile in another tab, storage
 * full) takes the shown move back. Nothing is written when the position already is the target.
 */
import type { TreeData } from "../../core/session/session-tree.ts";
import type { CutpointDb, Result, SessionRow } from "../../db/index.ts";
import type { PendingEntries } from "../session/pending-entries.ts";
import { buildLeafMove, moveLeaf } from "./branch-service.ts";

export async function moveLeafShown(
  deps: { db: CutpointDb; pending: PendingEntries },
  sessionId: string,
  data: TreeData,
  targetId: string | null,
): Promise<Result<SessionRow>> {
  const expected = { expectedLeafId: data.leafId, position: data.positionId };
  if (data.positionId === targetId) return moveLeaf(deps.db, sessionId, targetId, expected);
  const entry = buildLeafMove(data.leafId, targetId, { taken: data.index.byId });
  const withdraw = deps.pending.show(sessionId, [entry]);
  const r = await moveLeaf(deps.db, sessionId, targetId, { entry, ...expected });
  if (!r.ok) withdraw();
  return r;
}
