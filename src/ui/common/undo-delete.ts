/**
 * The Undo of a session delete: a toast for the rest of the undo window, then the purge. A delete
 * only marks the session (`deletedAt`), so a reload within the window offers the Undo again
 * (`useUndoAfterReload`, run by the toasts); the purge runs when the window ends, or on the next start.
 */
import { useEffect } from "react";
import { sessionTitle } from "../../core/session/session-name.ts";
import { storedSessions } from "../../services/session/sessions-instance.ts";
import { UNDO_WINDOW_MS } from "../../services/session/sessions-service.ts";
import { useUiStore } from "../../store/ui-store.ts";

/** Sessions with an Undo toast in this page (StrictMode runs the start-up effect twice). */
const offered = new Set<string>();

/** Shows "Deleted … [Undo]" until `deletedAt` + the undo window, then purges expired deletions. */
export function offerUndo(id: string, label: string, deletedAt: number, now = Date.now()): void {
  const left = deletedAt + UNDO_WINDOW_MS - now;
  if (left <= 0 || offered.has(id)) return;
  offered.add(id);
  const ui = useUiStore.getState();
  ui.pushToast({
    kind: "info",
    message: `Deleted “${label.slice(0, 60)}”.`,
    timeout: left,
    action: {
      label: "Undo",
      run: () => {
        offered.delete(id);
        void storedSessions.undoRemove(id).then((u) => {
          if (u.ok) useUiStore.getState().selectSession(id);
          else useUiStore.getState().pushToast({ kind: "error", message: u.error.message });
        });
      },
    },
  });
  setTimeout(() => {
    offered.delete(id);
    void storedSessions.purgeExpired();
  }, left + 500);
}

/** After a reload: the Undo of every delete whose window is still open. */
export function useUndoAfterReload(): void {
  useEffect(() => {
    void storedSessions.pendingDeletes().then((pending) => {
      for (const p of pending) offerUndo(p.row.id, sessionTitle(p.row), p.row.deletedAt);
    });
  }, []);
}
