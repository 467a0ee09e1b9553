/** A session's sync status in the session list (nothing while sync is off or before its first round). */
import { sessionSyncLine } from "./sync-text.ts";
import { useSyncStatus } from "./use-sync.ts";
import "./sync.css";

export function SessionSyncBadge({ sessionId }: { sessionId: string }) {
  const s = useSyncStatus().sessions[sessionId];
  if (!s) return null;
  const line = sessionSyncLine(s);
  return (
    <span className="session-sync" data-testid="session-sync" data-state={s.state} title={`Sync: ${line}`}>
      {s.state === "synced" ? "✓ " : s.state === "error" ? "⚠ " : "↑ "}
      {line}
    </span>
  );
}
