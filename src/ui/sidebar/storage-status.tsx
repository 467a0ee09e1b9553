/** Storage use and "persistent storage" status; asks for persistence once on start. */
import { useEffect, useState } from "react";
import { browserStorage, type StorageStatus as Status } from "../../services/session/sessions-instance.ts";
import { useLive } from "../data/use-live.ts";
import { formatBytes } from "../format.ts";

export function StorageStatus() {
  const [status, setStatus] = useState<Status | undefined>(undefined);
  // Re-read the estimate whenever the sessions change.
  const version = useLive(browserStorage.watchVersion, [], 0);

  useEffect(() => {
    void browserStorage.requestPersistence().then(() => browserStorage.status().then(setStatus));
  }, []);
  useEffect(() => {
    void version;
    void browserStorage.status().then(setStatus);
  }, [version]);

  if (!status) return <div className="storage-status">Storage: checking…</div>;
  const { usage, quota, persisted, keepsBlobs } = status;
  const pct = usage !== null && quota ? Math.min(100, (usage / quota) * 100) : 0;
  return (
    <div className="storage-status" data-testid="storage-status">
      <div>
        Storage: {formatBytes(usage)} used of {formatBytes(quota)}
      </div>
      <meter className="storage-meter" aria-label="Storage used" min={0} max={100} value={pct} />
      <div>
        {persisted === true && "Persistent: the browser will not evict these sessions."}
        {persisted === false &&
          "Not persistent: the browser may evict data under storage pressure. Export what matters."}
        {persisted === null && "Persistence status unknown in this browser."}
      </div>
      {keepsBlobs === false && (
        <div data-testid="storage-limited">
          This window refuses stored files, as private windows do: sessions are kept in a simpler form and may
          be gone when the window closes. Export what matters, or use a normal window.
        </div>
      )}
    </div>
  );
}
