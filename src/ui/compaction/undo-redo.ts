/**
 * Undo and Redo of a compaction from the UI (toasts, history, the review), said once each: the
 * services move the leaf and say what the review is offered back (services/compaction/undo-service.ts);
 * here the store takes it and a notice offers the way back.
 */
import type { CompactionEntry, SessionEntry } from "../../core/session/types.ts";
import type { CompactionActions } from "../../services/app/app-services.ts";
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
  actions: CompactionActions,
  sessionId: string,
  compaction: CompactionEntry,
  path?: readonly SessionEntry[],
): Promise<void> {
  const r = await actions.undo({ sessionId, compaction, ...(path ? { path } : {}) });
  if (!r.ok) return say(sessionId, `Undo failed: ${r.message}`);
  useCompactionStore.getState().offerUndone(sessionId, compaction.id, r.draft);
  refocusIfLost(compactionControls);
  say(sessionId, "Compaction undone: the leaf is back before it (history kept).", {
    label: "Redo",
    run: () => void runRedo(actions, sessionId, compaction),
  });
}

/** Redo after Undo: the leaf moves to the compaction again. */
export async function runRedo(
  actions: CompactionActions,
  sessionId: string,
  compaction: CompactionEntry,
): Promise<void> {
  const r = await actions.redo({ sessionId, compaction });
  if (!r.ok) return say(sessionId, `Redo failed: ${r.message}`);
  useCompactionStore.getState().withdrawUndone(sessionId, compaction.id);
  refocusIfLost(compactionControls);
  say(sessionId, "Compaction redone: the session continues from the summary again.", {
    label: "Undo",
    run: () => void runUndo(actions, sessionId, compaction),
  });
}
