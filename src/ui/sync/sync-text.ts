/** How a session's sync status reads (Settings → Sync and the session list say it the same way). */
import type { SessionSyncStatus } from "../../services/sync/sync-engine.ts";
import { formatCountOf } from "../format.ts";

/** "synced", "3 entries waiting", or "3 entries waiting; error: <reason>". */
export function sessionSyncLine(s: SessionSyncStatus): string {
  if (s.state === "synced") return "synced";
  const waiting = `${formatCountOf(s.entries, "entry", "entries")} waiting`;
  if (s.state === "waiting") return waiting;
  return `${s.entries > 0 ? `${waiting}; ` : ""}error: ${s.message}`;
}
