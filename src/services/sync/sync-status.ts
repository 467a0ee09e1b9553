/**
 * What the sync status says of each local session (synced, N entries waiting, or an error with
 * its reason), worked out once for the round's end and for a local append between rounds.
 */
import { sessionTitle } from "../../core/session/session-name.ts";
import type { RemoteSession } from "../../core/sync/manifest.ts";
import { type CutpointDb, listSessions, type SessionRow } from "../../db/index.ts";
import { waitingEntries } from "./sync-session.ts";
import { loadSessionState } from "./sync-state.ts";
import type { SyncFailure } from "./sync-transport.ts";

export type SessionSyncStatus = { title: string } & (
  | { state: "synced" }
  | { state: "waiting"; entries: number }
  | { state: "error"; entries: number; message: string }
);

export interface SyncStatus {
  /** "off": no target set; nothing is sent. */
  phase: "off" | "idle" | "running" | "error";
  target?: string;
  /** The target in a few words (targetName). */
  targetName?: string;
  message?: string;
  lastSyncedAt?: number;
  sessions: Record<string, SessionSyncStatus>;
  /** Sessions on the target that are not on this device (fetch on demand). */
  remote: RemoteSession[];
  progress?: { sessionId: string; done: number; total: number };
}

/**
 * One session's status from its entries still to upload. `failure`: what stopped the round, when
 * it stops every session alike (wrong credentials, an unreachable or full target): a session with
 * entries waiting then shows it as its error.
 */
export async function sessionStatus(
  db: CutpointDb,
  row: SessionRow,
  failure?: SyncFailure,
): Promise<SessionSyncStatus> {
  const title = sessionTitle(row);
  const entries = await waitingEntries({ db }, row, await loadSessionState(db, row.id, row.generation));
  if (entries === 0) return { title, state: "synced" };
  return failure && failure.kind !== "other"
    ? { title, state: "error", entries, message: failure.message }
    : { title, state: "waiting", entries };
}

/** `known` (the statuses a round set) completed with every other local session's. */
export async function allSessionStatuses(
  db: CutpointDb,
  known: Record<string, SessionSyncStatus>,
  failure?: SyncFailure,
): Promise<Record<string, SessionSyncStatus>> {
  const out = { ...known };
  for (const row of await listSessions(db)) out[row.id] ??= await sessionStatus(db, row, failure);
  return out;
}
