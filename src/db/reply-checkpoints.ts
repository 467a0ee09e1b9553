/**
 * Checkpoints of the reply being streamed (table `replyCheckpoints`), so that a reload or a crash
 * mid-reply loses at most the last moments of it. A checkpoint is written only while its run
 * still marks the session and the session's leaf is still the entry the reply chains to, so a late
 * write can never outlive the reply's own append (which removes it in the same transaction).
 */
import type { AssistantMessage } from "../core/session/types.ts";
import { toDbError } from "./result.ts";
import type { CutpointDb, ReplyCheckpointRow } from "./schema.ts";

/** Saves the partial reply; false when the run or the leaf moved on (nothing written). */
export async function saveReplyCheckpoint(db: CutpointDb, checkpoint: ReplyCheckpointRow): Promise<boolean> {
  try {
    return await db.transaction("rw", db.sessions, db.replyCheckpoints, async () => {
      const row = await db.sessions.get(checkpoint.sessionId);
      if (!row || row.deletedAt || row.runOwner !== checkpoint.run || row.leafId !== checkpoint.parentId)
        return false;
      await db.replyCheckpoints.put(checkpoint);
      return true;
    });
  } catch (e) {
    console.warn("reply checkpoint not saved:", toDbError(e).error.message);
    return false;
  }
}

export async function getReplyCheckpoint(
  db: CutpointDb,
  sessionId: string,
): Promise<ReplyCheckpointRow | undefined> {
  return db.replyCheckpoints.get(sessionId);
}

/** Removes the session's checkpoint (only the one of `run` when given). */
export async function dropReplyCheckpoint(db: CutpointDb, sessionId: string, run?: string): Promise<void> {
  await db.transaction("rw", db.replyCheckpoints, async () => {
    const row = await db.replyCheckpoints.get(sessionId);
    if (row && (run === undefined || row.run === run)) await db.replyCheckpoints.delete(sessionId);
  });
}

/** The message pi reads for a reply cut off by a reload: what arrived, marked aborted. */
export function interruptedReply(partial: AssistantMessage, note: string): AssistantMessage {
  return {
    ...partial,
    content: partial.content.map((b) => ({ ...b })),
    stopReason: "aborted",
    errorMessage: note,
  };
}

/**
 * Whether the session has agent work in storage that a page shows: a checkpointed reply (cut off
 * by a reload, or streaming in another tab) or a run mark (a run in another tab, or this page's
 * before a reload). One snapshot of both tables.
 */
export async function agentWorkStored(db: CutpointDb, sessionId: string): Promise<boolean> {
  return db.transaction("r", db.sessions, db.replyCheckpoints, async () => {
    const row = await db.sessions.get(sessionId);
    if (!row || row.deletedAt) return false;
    return row.runOwner !== undefined || (await db.replyCheckpoints.get(sessionId)) !== undefined;
  });
}
