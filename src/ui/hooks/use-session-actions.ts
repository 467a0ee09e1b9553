/** Session actions wired to services and toasts, shared by the list, top bar and welcome. */
import { useCallback, useMemo } from "react";
import { db } from "../../db/instance.ts";
import {
  createEmptySession,
  deleteSession,
  exportSessionFile,
  loadExampleSession,
  renameSession,
} from "../../services/sessions-service.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { download } from "../common/download.ts";
import { offerUndo } from "../common/undo-delete.ts";

export function useSessionActions() {
  const toast = useUiStore((s) => s.pushToast);
  const select = useUiStore((s) => s.selectSession);

  const newSession = useCallback(async () => {
    const r = await createEmptySession(db);
    if (r.ok) select(r.value.id);
    else toast({ kind: "error", message: r.error.message });
  }, [select, toast]);

  const example = useCallback(async () => {
    const r = await loadExampleSession(db);
    if (r.ok) {
      select(r.value.id);
      toast({ kind: "success", message: `Example session loaded (${r.value.entryCount} entries).` });
    } else toast({ kind: "error", message: r.error.message });
  }, [select, toast]);

  const rename = useCallback(
    async (id: string, name: string) => {
      const r = await renameSession(db, id, name);
      if (!r.ok) toast({ kind: "error", message: r.error.message });
    },
    [toast],
  );

  const remove = useCallback(
    async (id: string, label: string) => {
      const r = await deleteSession(db, id);
      if (!r.ok) {
        toast({ kind: "error", message: r.error.message });
        return;
      }
      if (useUiStore.getState().selectedSessionId === id) select(undefined);
      offerUndo(id, label, r.value.deletedAt);
    },
    [select, toast],
  );

  const exportFile = useCallback(
    async (id: string) => {
      const r = await exportSessionFile(db, id);
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
