/** The sync line under the session list while a target is set: how the last round went, and Sync now. */
import { useState } from "react";
import { useAppServices } from "../hooks/app-services.tsx";
import { useSyncStatus } from "./use-sync.ts";
import "./sync.css";

export function SyncFooter() {
  const status = useSyncStatus();
  const { sync } = useAppServices();
  const [busy, setBusy] = useState(false);
  if (status.phase === "off") return null;
  const line =
    status.phase === "running"
      ? status.progress
        ? `Sync: uploading ${status.progress.done} of ${status.progress.total} entries…`
        : "Sync: syncing…"
      : status.phase === "error"
        ? `Sync: ${status.message ?? "stopped"}`
        : `Synced${status.lastSyncedAt ? ` at ${new Date(status.lastSyncedAt).toLocaleTimeString()}` : ""}`;
  const syncNow = async () => {
    setBusy(true);
    await (await sync.engine()).syncNow(true);
    setBusy(false);
  };
  return (
    <div
      className="sync-footer"
      data-testid="sync-footer"
      data-phase={status.phase}
      data-synced-at={status.lastSyncedAt ?? 0}
    >
      <span className="sync-footer-line" title={line} role={status.phase === "error" ? "alert" : "status"}>
        {line}
      </span>
      <button type="button" className="btn" disabled={busy} onClick={() => void syncNow()}>
        Sync now
      </button>
    </div>
  );
}
