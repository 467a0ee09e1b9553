/**
 * Replies lost to a reload or a crash. The reply streaming when the tab went away survives as a
 * checkpoint (src/db reply-checkpoints.ts); once no tab runs the session it is an interrupted
 * reply the person keeps (appended as an assistant message with stopReason "aborted" and an
 * errorMessage saying why, the way pi marks a reply cut short) or drops. Either way it is not sent
 * to the model again (pi 1.6's rule, core/agent/request-messages.ts).
 *
 * `awaitsReply`: whether the path ends with a user message and no reply, i.e. its reply was lost
 * (or dropped): the next message then goes out joined to it, as one user message. Only a reply
 * with text can be kept (`keepable`): an empty one would show nothing.
 */
import { buildSessionContext, type SessionContext } from "../../core/session/context.ts";
import type { AssistantMessage, MessageEntry, SessionEntry } from "../../core/session/types.ts";
import {
  appendAtLeaf,
  type CutpointDb,
  dropReplyCheckpoint,
  getReplyCheckpoint,
  interruptedReply,
  markOwner,
  type ReplyCheckpointRow,
  type Result,
  type SessionRow,
} from "../../db/index.ts";
import { newEntryId } from "../common/ids.ts";

export const INTERRUPTED_NOTE =
  "Interrupted: the page was reloaded or closed while this reply was streaming.";

export const KEEP_MOVED_MESSAGE =
  "The session moved on since this reply was cut off, so it cannot be kept where it belongs. Drop it (copy what you need first).";

/** The checkpoint of a reply no tab is streaming any more (`liveElsewhere`: a tab holds the run). */
export async function findInterrupted(
  db: CutpointDb,
  sessionId: string,
  opts: { owner: string; liveElsewhere: boolean; runningHere: boolean },
): Promise<ReplyCheckpointRow | undefined> {
  if (opts.runningHere || opts.liveElsewhere) return undefined;
  const cp = await getReplyCheckpoint(db, sessionId);
  if (!cp) return undefined;
  // This page's own checkpoint outside a run: its run ended without appending (save failed).
  if (markOwner(cp.run) === opts.owner) return undefined;
  return cp;
}

/** Appends the interrupted reply where it was streaming, and removes its checkpoint. */
export function keepInterrupted(
  db: CutpointDb,
  cp: ReplyCheckpointRow,
  owner: string,
  now = new Date(),
): Promise<Result<SessionRow>> {
  return appendAtLeaf(
    db,
    cp.sessionId,
    { expectedLeafId: cp.parentId, dropCheckpoint: true, writer: { owner }, now },
    (_row, at): MessageEntry => ({
      type: "message",
      id: newEntryId(),
      parentId: cp.parentId,
      timestamp: at.toISOString(),
      message: interruptedReply(cp.message, INTERRUPTED_NOTE),
    }),
  ).then((r) =>
    !r.ok && r.error.kind === "conflict"
      ? { ok: false, error: { ...r.error, message: KEEP_MOVED_MESSAGE } }
      : r,
  );
}

export function dropInterrupted(db: CutpointDb, cp: ReplyCheckpointRow): Promise<void> {
  return dropReplyCheckpoint(db, cp.sessionId, cp.run);
}

/**
 * True when the path's last message (system messages aside) is the person's, with no reply at
 * all after it: the reply was lost or dropped. A failed or stopped reply is a reply (kept, marked).
 */
export function awaitsReply(
  path: readonly SessionEntry[],
  /** `buildSessionContext(path)` when the caller has it (the same result either way). */
  context: SessionContext = buildSessionContext(path),
): boolean {
  const last = context.messages.filter((m) => m.role !== "system").at(-1);
  return last?.role === "user";
}

/** Whether keeping the partial reply gives the model something: text (thinking alone is not sent). */
export function keepable(partial: AssistantMessage): boolean {
  return partial.content.some((b) => b.type === "text" && b.text.trim() !== "");
}
