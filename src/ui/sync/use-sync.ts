/** A hook that follows the tab's sync status (the engine is the tab's services' `sync`, started on first use). */
import { useSyncExternalStore } from "react";
import type { SyncStatus } from "../../services/sync/sync-engine.ts";
import { useAppServices } from "../hooks/app-services.tsx";

export function useSyncStatus(): SyncStatus {
  const { sync } = useAppServices();
  return useSyncExternalStore(sync.subscribe, sync.status);
}
