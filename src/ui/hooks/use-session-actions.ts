/** Session actions wired to services and toasts, shared by the list, top bar and welcome. */
import { useCallback, useMemo } from "react";
import { storedSessions } from "../../services/session/sessions-instance.ts";
import type { ExampleKind } from "../../services/session/sessions-service.ts";
import { openCompactionPreview } from "../../store/compaction-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { download } from "../common/download.ts";
import { offerUndo } from "../common/undo-delete.ts";
import { useAppServices } from "./app-services.tsx";

/** What the compaction example's review says first: what is shown, and how to do it with one's own sessions. */
export const EXAMPLE_INTRO =
  "Example: this session is past 20,000 tokens, so at the default settings (keep the last 20,000) Cutpoint plans the compaction below, before anything is written. Try Offline summary, then Confirm, then Undo. With your own sessions: import a pi session file (~/.pi/agent/sessions/…/*.jsonl) with Import…, or run one here with your API key (Settings ⚙), then press Compact….";

export function useSessionActions() {
  const toast = useUiStore((s) => s.pushToast);
  const select = useUiStore((s) => s.selectSession);
  const { handover, undoOffers } = useAppServices();

  const newSession = useCallback(async () => {
    const r = await storedSessions.create();
    if (r.ok) select(r.value.id);
    else toast({ kind: "error", message: r.error.message });
  }, [select, toast]);

  const example = useCallback(
    async (kind: ExampleKind = "tour") => {
      const r = await storedSessions.example(kind);
      if (!r.ok) {
        toast({ kind: "error", message: r.error.message });
        return;
      }
      select(r.value.id);
      if (kind === "compaction") {
        // The first minute: the plan at the default settings is on screen, with how to try it on one's own.
        openCompactionPreview(r.value.id, { reason: EXAMPLE_INTRO });
        useUiStore.getState().setRightPanelOpen(true);
      } else toast({ kind: "success", message: `Example session loaded (${r.value.entryCount} entries).` });
    },
    [select, toast],
  );

  const rename = useCallback(
    async (id: string, name: string) => {
      const r = await storedSessions.rename(id, name);
      if (!r.ok) toast({ kind: "error", message: r.error.message });
    },
    [toast],
  );

  const remove = useCallback(
    async (id: string, label: string) => {
      // What is kept in memory for it goes with it.
      const r = await storedSessions.remove(id, { handover });
      if (!r.ok) {
        toast({ kind: "error", message: r.error.message });
        return;
      }
      if (useUiStore.getState().selectedSessionId === id) select(undefined);
      offerUndo(undoOffers, id, label, r.value.deletedAt);
    },
    [select, toast, handover, undoOffers],
  );

  const exportFile = useCallback(
    async (id: string) => {
      const r = await storedSessions.exportFile(id);
      if (r.ok) download(r.value.blob, r.value.fileName);
      else toast({ kind: "error", message: r.error.message });
    },
    [toast],
  );

  return useMemo(
    () => ({ newSession, example, rename, remove, exportFile }),
    [newSession, example, rename, remove, exportFile],
  );
}
