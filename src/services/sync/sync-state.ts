/**
 * What this device remembers of its sync, in its settings (IndexedDB), so a reload, a crash or an
 * offline spell resumes where it stopped: per session, which local chunks are handled, the chunks
 * read from each other device, the markers kept back and the entries whose parent has not arrived;
 * and its own manifest as last written (the copy it rewrites).
 */

import type { SessionEntry } from "../../core/session/types.ts";
import { type DeviceManifest, emptyManifest } from "../../core/sync/manifest.ts";
import { type CutpointDb, getSetting, setSetting } from "../../db/index.ts";

export interface SessionSyncState {
  /** The session's generation these counts are for (a re-import "replace" starts over). */
  generation: number;
  /** Local chunks 1..pushedSeq are on the target (or came from it). */
  pushedSeq: number;
  /** Local chunks past pushedSeq written by a merge (their entries came from the target). */
  mergedSeqs: number[];
  /** Position markers not uploaded yet (push-plan.ts). */
  held: SessionEntry[];
  /** Entries read from the target whose parent has not arrived. */
  waiting: SessionEntry[];
  /** Chunks read from each other device: device -> last seq. */
  read: Record<string, number>;
  /** An upload in pieces under way: local chunks up to maxSeq, `sent` entries of its plan done. */
  pushing?: { maxSeq: number; sent: number };
  /** Deleted here because another device's person deleted it (an Undo there brings it back). */
  deletedBySync?: boolean;
}

const stateKey = (sessionId: string) => `sync.session.${sessionId}`;
const MANIFEST_SETTING = "sync.manifest";

export function freshState(generation: number): SessionSyncState {
  return { generation, pushedSeq: 0, mergedSeqs: [], held: [], waiting: [], read: {} };
}

export async function loadSessionState(
  db: CutpointDb,
  sessionId: string,
  generation: number,
): Promise<SessionSyncState> {
  const v = await getSetting<SessionSyncState>(db, stateKey(sessionId));
  if (!v || typeof v !== "object") return freshState(generation);
  // Replaced as a whole: every entry is uploaded again (the target's union drops repeats).
  if (v.generation !== generation)
    return { ...freshState(generation), read: v.read ?? {}, deletedBySync: v.deletedBySync };
  return v;
}

export async function saveSessionState(
  db: CutpointDb,
  sessionId: string,
  state: SessionSyncState,
): Promise<void> {
  await setSetting(db, stateKey(sessionId), state);
}

export async function loadOwnManifest(db: CutpointDb, device: string): Promise<DeviceManifest> {
  const v = await getSetting<DeviceManifest>(db, MANIFEST_SETTING);
  return v && v.device === device ? v : emptyManifest(device);
}

/** Saves the manifest copy and a session's state in one transaction (after a chunk is written). */
export async function saveAfterChunk(
  db: CutpointDb,
  manifest: DeviceManifest,
  sessionId: string,
  state: SessionSyncState,
): Promise<void> {
  await db.transaction("rw", db.settings, async () => {
    await setSetting(db, MANIFEST_SETTING, manifest);
    await setSetting(db, stateKey(sessionId), state);
  });
}

export async function saveOwnManifest(db: CutpointDb, manifest: DeviceManifest): Promise<void> {
  await setSetting(db, MANIFEST_SETTING, manifest);
}

/** Whether this device ever synced the session (a state is kept after a purge too). */
export async function hasSessionState(db: CutpointDb, sessionId: string): Promise<boolean> {
  return (await getSetting<SessionSyncState>(db, stateKey(sessionId))) !== undefined;
}
