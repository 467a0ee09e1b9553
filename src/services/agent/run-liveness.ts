/**
 * Tells src/db how to see whether some tab holds a session's run lock (navigator.locks), so that
 * an append clears the run mark of a tab that closed or crashed mid-run. Set at start-up
 * (src/main.tsx), before any write: the agent's own code loads later, on demand.
 */
import { type CutpointDb, setRunLiveness } from "../../db/index.ts";
import { db as appDb } from "../../db/instance.ts";
import { defaultLockQuery, lockHeld } from "./session-run.ts";

export function watchRunLiveness(db: CutpointDb = appDb): void {
  const query = defaultLockQuery();
  setRunLiveness(db, query ? (sessionId) => lockHeld(query, sessionId) : null);
}
