/** Fetching a session that is only on the sync target, as Settings → Sync and the session list both offer it. */
import { useState } from "react";
import { useUiStore } from "../../store/ui-store.ts";
import { useAppServices } from "../hooks/app-services.tsx";

export function useFetchRemote() {
  const toast = useUiStore((s) => s.pushToast);
  const { sync } = useAppServices();
  const [fetching, setFetching] = useState<string | null>(null);
  const fetchOne = async (id: string, title: string) => {
    setFetching(id);
    const r = await (await sync.engine()).fetchSession(id);
    setFetching(null);
    if (r.ok) toast({ kind: "info", message: `Fetched “${title}” from the target.` });
    else toast({ kind: "error", message: r.error.message });
  };
  return { fetching, fetchOne };
}
