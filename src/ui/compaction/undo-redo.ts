/**
 * Undo and Redo of a compaction from the UI (toasts, history, the review), said once each; the
 * undone summary is offered back as the review's draft, and withdrawn by its Redo.
 */
import type { CompactionEntry, SessionEntry } from "../../core/session/types.ts";
import { db } from "../../db/instance.ts";
import { undoneDraftOf } from "../../services/compaction/compaction-drafts.ts";
import { redoCompaction, undoCompaction } from "../../services/compaction/compaction-runner.ts";
import { useCompactionStore } from "../../store/compaction-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { refocusIfLost } from "../common/focus-return.ts";
import { compactionControls } from "./focus-return.ts";

/** The session's compaction notice (it replaces the one before it). */
function say(sessionId: string, message: string, action?: { label: string; run: () => void }): void {
  useUiStore.getState().pushToast({
    kind: action ? "info" : "error",
    key: `compaction:${sessionId}`,
    sessionId,
    message,
    ...(action ? { action, timeout: 10000 } : {}),
  });
}

/** Undo: the leaf goes back before the compaction (history kept); the toast offers Redo, the review its summary. */
export async function runUndo(
  sessionId: string,
  compaction: CompactionEntry,
  path?: readonly SessionEntry[],
): Promise<void> {
  // With the path, a compaction made right after a move undoes to the entry that move stood for.
  const r = await undoCompaction(db, { sessionId, compaction, ...(path ? { path } : {}) });
  if (!r.ok) return say(sessionId, `Undo failed: ${r.error.message}`);
  useCompactionStore.getState().offerUndone(sessionId, compaction.id, undoneDraftOf(compaction));
  refocusIfLost(compactionControls);
  say(sessionId, "Compaction undone: the leaf is back before it (history kept).", {
    label: "Redo",
    run: () => void runRedo(sessionId, compaction),
  });
}

/** Redo after Undo: the leaf moves to the compaction again. */
export async function runRedo(sessionId: string, compaction: CompactionEntry): Promise<void> {
  const r = await redoCompaction(db, { sessionId, compaction });
  if (!r.ok) return say(sessionId, `Redo failed: ${r.error.message}`);
  useCompactionStore.getState().withdrawUndone(sessionId, compaction.id);
  refocusIfLost(compactionControls);
  say(sessionId, "Compaction redone: the session continues from the summary again.", {
    label: "Undo",
    run: () => void runUndo(sessionId, compaction),
  });
}
