/** Fetching a session that is only on the sync target, as Settings → Sync and the session list both offer it. */
import { useState } from "react";
import { useUiStore } from "../../store/ui-store.ts";
import { appSyncEngine } from "./use-sync.ts";

export function useFetchRemote() {
  const toast = useUiStore((s) => s.pushToast);
  const [fetching, setFetching] = useState<string | null>(null);
  const fetchOne = async (id: string, title: string) => {
    setFetching(id);
    const r = await (await appSyncEngine()).fetchSession(id);
    setFetching(null);
    if (r.ok) toast({ kind: "info", message: `Fetched “${title}” from the target.` });
    else toast({ kind: "error", message: r.error.message });
  };
  return { fetching, fetchOne };
}
