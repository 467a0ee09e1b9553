/**
 * Where the person's summary instructions are kept (core/compaction/instructions.ts resolves
 * them): for all sessions under the settings key "compaction.summaryInstructions", per session
 * under that key + "." + the session id, both in this browser's settings table. Absent = inherit.
 */
import {
  instructionsToStore,
  type ResolvedInstructions,
  readStoredInstructions,
  resolveSummaryInstructions,
  type StoredInstructions,
} from "../../core/compaction/instructions.ts";
import { type CutpointDb, deleteSetting, getSetting, type Result, setSetting } from "../../db/index.ts";

export const SUMMARY_INSTRUCTIONS_KEY = "compaction.summaryInstructions";
const sessionKey = (sessionId: string) => `${SUMMARY_INSTRUCTIONS_KEY}.${sessionId}`;

export interface SummaryInstructionsState {
  resolved: ResolvedInstructions;
  /** The session's own, when it has one. */
  session: StoredInstructions | undefined;
  /** The instructions for all sessions, when set. */
  global: StoredInstructions | undefined;
}

/** The instructions in force for a session ("" or no id: the ones for all sessions). */
export async function loadSummaryInstructions(
  db: CutpointDb,
  sessionId: string | undefined,
): Promise<SummaryInstructionsState> {
  const global = readStoredInstructions(await getSetting(db, SUMMARY_INSTRUCTIONS_KEY));
  const session = sessionId ? readStoredInstructions(await getSetting(db, sessionKey(sessionId))) : undefined;
  return { resolved: resolveSummaryInstructions(session, global), session, global };
}

/** Sets the instructions of a scope; null, a blank text or the inherited text clears it (instructionsToStore). */
export async function saveSummaryInstructions(
  db: CutpointDb,
  scope: { kind: "global" } | { kind: "session"; sessionId: string },
  text: string | null,
): Promise<Result<void>> {
  const key = scope.kind === "global" ? SUMMARY_INSTRUCTIONS_KEY : sessionKey(scope.sessionId);
  const global =
    scope.kind === "session"
      ? readStoredInstructions(await getSetting(db, SUMMARY_INSTRUCTIONS_KEY))
      : undefined;
  const stored = instructionsToStore(scope.kind, text, global);
  return stored === null ? deleteSetting(db, key) : setSetting(db, key, stored);
}
