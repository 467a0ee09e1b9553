/**
 * The Undo of a session delete: a toast for the rest of the undo window, then the purge. A delete
 * only marks the session (`deletedAt`), so a reload within the window offers the Undo again
 * (`useUndoAfterReload`, run by the toasts); the purge runs when the window ends, or on the next start.
 */
import { useEffect } from "react";
import { sessionTitle } from "../../core/session/session-name.ts";
import { storedSessions } from "../../services/session/sessions-instance.ts";
import { UNDO_WINDOW_MS } from "../../services/session/sessions-service.ts";
import type { UndoOffers } from "../../services/session/undo-offers.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { useAppServices } from "../hooks/app-services.tsx";

/**
 * Shows "Deleted … [Undo]" until `deletedAt` + the undo window, then purges expired deletions;
 * once per session while `offers` (the tab's) holds its offer.
 */
export function offerUndo(
  offers: UndoOffers,
  id: string,
  label: string,
  deletedAt: number,
  now = Date.now(),
): void {
  const left = deletedAt + UNDO_WINDOW_MS - now;
  if (left <= 0 || !offers.take(id)) return;
  const ui = useUiStore.getState();
  ui.pushToast({
    kind: "info",
    message: `Deleted “${label.slice(0, 60)}”.`,
    timeout: left,
    action: {
      label: "Undo",
      run: () => {
        offers.release(id);
        void storedSessions.undoRemove(id).then((u) => {
          if (u.ok) useUiStore.getState().selectSession(id);
          else useUiStore.getState().pushToast({ kind: "error", message: u.error.message });
        });
      },
    },
  });
  setTimeout(() => {
    offers.release(id);
    void storedSessions.purgeExpired();
  }, left + 500);
}

/** After a reload: the Undo of every delete whose window is still open. */
export function useUndoAfterReload(): void {
  const { undoOffers } = useAppServices();
  useEffect(() => {
    void storedSessions.pendingDeletes().then((pending) => {
      for (const p of pending) offerUndo(undoOffers, p.row.id, sessionTitle(p.row), p.row.deletedAt);
    });
  }, [undoOffers]);
}
