/** Undo and Redo of a compaction: the leaf moves, and what the review is offered back (or withdrawn). */
import type { CompactionEntry, SessionEntry } from "../../core/session/types.ts";
import type { CutpointDb } from "../../db/schema.ts";
import { type UndoneDraft, undoneDraftOf } from "./compaction-drafts.ts";
import { redoCompaction, undoCompaction } from "./compaction-runner.ts";

export type UndoOutcome = { ok: true; draft: UndoneDraft | undefined } | { ok: false; message: string };

/**
 * Undo: the leaf goes back before the compaction (history kept); its summary is the draft the
 * review is offered back. With the path, a compaction made right after a move undoes to the
 * entry that move stood for.
 */
export async function undoStep(
  db: CutpointDb,
  input: { sessionId: string; compaction: CompactionEntry; path?: readonly SessionEntry[] },
): Promise<UndoOutcome> {
  const r = await undoCompaction(db, input);
  return r.ok
    ? { ok: true, draft: undoneDraftOf(input.compaction) }
    : { ok: false, message: r.error.message };
}

/** Redo after Undo: the leaf moves to the compaction again (the offered draft is withdrawn). */
export async function redoStep(
  db: CutpointDb,
  input: { sessionId: string; compaction: CompactionEntry },
): Promise<{ ok: true } | { ok: false; message: string }> {
  const r = await redoCompaction(db, input);
  return r.ok ? { ok: true } : { ok: false, message: r.error.message };
}
