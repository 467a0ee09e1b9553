/**
 * Deletes as tombstones in the manifests: a session the person deleted here gets `deletedAt` in
 * this device's manifest (an Undo takes it out again); a session with a tombstone in another
 * device's manifest is deleted here too (with the app's usual soft delete), and comes back when
 * that tombstone is gone (Undo there). Nothing is ever removed from the target.
 */

import { sessionTitle } from "../../core/session/session-name.ts";
import { deletedElsewhere, type ManifestSession } from "../../core/sync/manifest.ts";
import {
  listDeletedSessions,
  listSessions,
  restoreSession,
  type SessionRow,
  softDeleteSession,
} from "../../db/index.ts";
import type { RoundContext } from "./sync-session.ts";
import { hasSessionState, loadSessionState, saveSessionState } from "./sync-state.ts";
import { done, type SyncResult } from "./sync-transport.ts";

function withRecord(
  ctx: RoundContext,
  id: string,
  change: (prev: ManifestSession | undefined) => ManifestSession,
) {
  ctx.own = { ...ctx.own, sessions: { ...ctx.own.sessions, [id]: change(ctx.own.sessions[id]) } };
}

const onTarget = (ctx: RoundContext, id: string) => ctx.manifests.some((m) => m.sessions[id] !== undefined);

function tombstone(ctx: RoundContext, row: Pick<SessionRow, "id" | "header">, title: string, at: number) {
  withRecord(ctx, row.id, (prev) => ({
    ...(prev ?? { header: row.header, chunks: 0, entries: 0, bytes: 0, title }),
    deletedAt: prev?.deletedAt ?? at,
  }));
}

export async function applyDeletes(ctx: RoundContext): Promise<SyncResult<void>> {
  const { db, device } = ctx;
  const live = await listSessions(db);
  for (const row of live) {
    const record = ctx.own.sessions[row.id];
    if (deletedElsewhere(ctx.manifests, row.id, device)) {
      const r = await softDeleteSession(db, row.id);
      if (r.ok) {
        const state = await loadSessionState(db, row.id, row.generation);
        await saveSessionState(db, row.id, { ...state, deletedBySync: true });
      }
    } else if (record?.deletedAt !== undefined) {
      // Undone here: the tombstone goes.
      const { deletedAt: _, ...rest } = record;
      withRecord(ctx, row.id, () => rest);
    }
  }
  const softDeleted = await listDeletedSessions(db);
  for (const row of softDeleted) {
    const state = await loadSessionState(db, row.id, row.generation);
    if (state.deletedBySync) {
      if (!deletedElsewhere(ctx.manifests, row.id, device) && (await restoreSession(db, row.id)).ok)
        await saveSessionState(db, row.id, { ...state, deletedBySync: false });
    } else if (onTarget(ctx, row.id)) tombstone(ctx, row, sessionTitle(row), row.deletedAt);
  }
  // Purged here after a delete (no row left, a state kept): the tombstone stays or is written.
  const here = new Set([...live, ...softDeleted].map((r) => r.id));
  for (const m of ctx.manifests) {
    for (const [id, s] of Object.entries(m.sessions)) {
      if (here.has(id) || ctx.own.sessions[id]?.deletedAt !== undefined) continue;
      if (!(await hasSessionState(db, id))) continue;
      const state = await loadSessionState(db, id, 0);
      if (!state.deletedBySync) tombstone(ctx, { id, header: s.header }, s.title, Date.now());
    }
  }
  return done(undefined);
}
