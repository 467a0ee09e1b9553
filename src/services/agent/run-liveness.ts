/**
 * Tells src/db how to see whether some tab holds a session's run lock (navigator.locks), so that
 * an append clears the run mark of a tab that closed or crashed mid-run. Set at start-up
 * (src/main.tsx), before any write: the agent's own code loads later, on demand.
 */
import { setRunLiveness } from "../../db/append-at-leaf.ts";
import { defaultLockQuery, lockHeld } from "./session-run.ts";

export function watchRunLiveness(): void {
  const query = defaultLockQuery();
  setRunLiveness(query ? (sessionId) => lockHeld(query, sessionId) : null);
}
