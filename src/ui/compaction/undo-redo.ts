/** Undo and Redo of a compaction from the UI (toasts, history, the review), said once each. */
import type { CompactionEntry, SessionEntry } from "../../core/session/types.ts";
import { db } from "../../db/instance.ts";
import { redoCompaction, undoCompaction } from "../../services/compaction-runner.ts";
import { useCompactionStore } from "../../store/compaction-store.ts";
import { useUiStore } from "../../store/ui-store.ts";

const key = (sessionId: string) => `compaction:${sessionId}`;

/** Undo: the leaf goes back before the compaction (history kept); the toast offers Redo. */
export async function runUndo(
  sessionId: string,
  compaction: CompactionEntry,
  path?: readonly SessionEntry[],
): Promise<void> {
  // With the path, a compaction made right after a move undoes to the entry that move stood for.
  const r = await undoCompaction(db, { sessionId, compaction, ...(path ? { path } : {}) });
  const ui = useUiStore.getState();
  if (!r.ok) {
    ui.pushToast({
      kind: "error",
      key: key(sessionId),
      sessionId,
      message: `Undo failed: ${r.error.message}`,
    });
    return;
  }
  useCompactionStore.getState().setStatus(sessionId, "undone", { undone: { entryId: compaction.id } });
  ui.pushToast({
    kind: "info",
    key: key(sessionId),
    sessionId,
    message: "Compaction undone: the leaf is back before it (history kept).",
    action: { label: "Redo", run: () => void runRedo(sessionId, compaction) },
    timeout: 10000,
  });
}

/** Redo after Undo: the leaf moves to the compaction again. */
export async function runRedo(sessionId: string, compaction: CompactionEntry): Promise<void> {
  const r = await redoCompaction(db, { sessionId, compaction });
  const ui = useUiStore.getState();
  if (!r.ok) {
    ui.pushToast({
      kind: "error",
      key: key(sessionId),
      sessionId,
      message: `Redo failed: ${r.error.message}`,
    });
    return;
  }
  useCompactionStore.getState().setStatus(sessionId, "confirmed", { undone: null });
  ui.pushToast({
    kind: "info",
    key: key(sessionId),
    sessionId,
    message: "Compaction redone: the session continues from the summary again.",
    action: { label: "Undo", run: () => void runUndo(sessionId, compaction) },
    timeout: 10000,
  });
}
