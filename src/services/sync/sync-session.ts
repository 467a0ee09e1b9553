/**
 * One session's part of a sync round: pull (read the chunks other devices wrote since last time,
 * merge them in by id, keep this device's position unless the new entries continue its branch)
 * and push (upload this device's new entries as new immutable chunks, in pieces, resumable).
 */
import { buildMoveEntry, isMoveEntry, isPositionMarker } from "../../core/session/moves.ts";
import { sessionTitle } from "../../core/session/session-name.ts";
import { resolveLeafId } from "../../core/session/tree.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { isLeafEntry } from "../../core/session/types.ts";
import { decodeChunkSteps, encodeChunkBytesSteps } from "../../core/sync/chunk-format.ts";
import { linesByEntry, type ParsedLines, parseLinesSteps } from "../../core/sync/jsonl-lines.ts";
import { chunkFolders, chunkKey } from "../../core/sync/layout.ts";
import { type DeviceManifest, unreadChunks } from "../../core/sync/manifest.ts";
import { mergeEntries, positionAfterMerge } from "../../core/sync/merge.ts";
import { planPush, waitingCount } from "../../core/sync/push-plan.ts";
import {
  appendEntries,
  type CutpointDb,
  chunkText,
  decodedPieces,
  readChunks,
  type SessionRow,
} from "../../db/index.ts";
import { newEntryId } from "../common/ids.ts";
import { runStepsInSlices } from "../common/yield.ts";
import { type ObjectIo, readBytes, writeBytes } from "./sync-objects.ts";
import { type SessionSyncState, saveAfterChunk, saveSessionState } from "./sync-state.ts";
import { done, type SyncResult } from "./sync-transport.ts";

export interface RoundContext {
  db: CutpointDb;
  io: ObjectIo;
  device: string;
  /** Every device's manifest as read this round (this device's included). */
  manifests: DeviceManifest[];
  /** This device's manifest (updated as chunks are written). */
  own: DeviceManifest;
  /** Upload progress of the session being pushed. */
  onProgress?: (sessionId: string, done: number, total: number) => void;
}

/**
 * Target size of an uploaded chunk's JSONL (characters, close to bytes for JSONL). Each is
 * encrypted and decrypted whole (AES-GCM), the longest native step on the page: 512 KB rather
 * than 1 MB halves it (e2e/bench/sync.bench.ts).
 */
export const PIECE_CHARS = 512 * 1024;
/**
 * Work per task while sync parses, merges or builds a big session (a first sync of 100 MB):
 * the page paints and answers between slices.
 */
export const SYNC_SLICE_MS = 10;
const CHUNK_TYPE = "application/x-ndjson";

/** Reads chunks in order, per device stopping at the first one not (completely) there yet. */
export async function readChunkEntries(
  ctx: RoundContext,
  session: string,
  refs: readonly { device: string; seq: number }[],
): Promise<SyncResult<ParsedLines & { read: Record<string, number> }>> {
  const entries: SessionEntry[] = [];
  const lines: string[] = [];
  const read: Record<string, number> = {};
  const stopped = new Set<string>();
  for (const ref of refs) {
    if (stopped.has(ref.device)) continue;
    const bytes = await readBytes(ctx.io, chunkKey(session, ref.device, ref.seq));
    if (!bytes.ok) return bytes;
    const decoded =
      bytes.value === null
        ? undefined
        : await runStepsInSlices(
            decodeChunkSteps(decodedPieces(bytes.value), { session, ...ref }),
            SYNC_SLICE_MS,
          );
    if (!decoded?.ok) {
      // Not there or half-written: read again next round.
      stopped.add(ref.device);
      continue;
    }
    for (let i = 0; i < decoded.entries.length; i++) {
      entries.push(decoded.entries[i]!);
      lines.push(decoded.lines[i]!);
    }
    read[ref.device] = ref.seq;
  }
  return done({ entries, lines, read });
}

/**
 * The entries (with their stored lines) of a session's local chunks after `afterSeq` that `keep`
 * accepts, parsed in slices; `onChunk` learns where each chunk's entries end.
 */
async function localLines(
  db: CutpointDb,
  sessionId: string,
  afterSeq: number,
  keep: (seq: number) => boolean,
  onChunk?: (seq: number, end: number) => void,
): Promise<ParsedLines> {
  const out: ParsedLines = { entries: [], lines: [] };
  for (const chunk of await readChunks(db, sessionId, afterSeq)) {
    if (!keep(chunk.seq)) continue;
    await runStepsInSlices(parseLinesSteps(await chunkText(chunk), out), SYNC_SLICE_MS);
    onChunk?.(chunk.seq, out.entries.length);
  }
  return out;
}

/** The entry a position stands for (a move's target, a `leaf` entry's target). */
function shownPosition(byId: ReadonlyMap<string, SessionEntry>, leafId: string | null): string | null {
  const leaf = leafId === null ? undefined : byId.get(leafId);
  if (!leaf) return leafId;
  if (isMoveEntry(leaf)) return leaf.parentId;
  if (isLeafEntry(leaf)) return typeof leaf.targetId === "string" ? leaf.targetId : null;
  return leaf.id;
}

/** Merges what other devices wrote. Returns how many entries were added. */
export async function pullSession(
  ctx: RoundContext,
  row: SessionRow,
  state: SessionSyncState,
): Promise<SyncResult<number>> {
  const refs = unreadChunks(ctx.manifests, row.id, ctx.device, state.read);
  if (refs.length === 0 && state.waiting.length === 0) return done(0);
  const got = await readChunkEntries(ctx, row.id, refs);
  if (!got.ok) return got;
  const local = (await localLines(ctx.db, row.id, 0, () => true)).entries;
  const byId = new Map(local.map((e) => [e.id, e] as const));
  const merged = mergeEntries(new Set(byId.keys()), [...state.waiting, ...got.value.entries]);
  const next: SessionSyncState = {
    ...state,
    read: { ...state.read, ...got.value.read },
    waiting: merged.waiting,
  };
  if (merged.append.length === 0) {
    await saveSessionState(ctx.db, row.id, next);
    return done(0);
  }
  for (const e of merged.append) byId.set(e.id, e);
  const anchor = shownPosition(byId, row.leafId);
  const forward = positionAfterMerge((id) => byId.get(id)?.parentId, anchor, merged.append, isPositionMarker);
  const wanted = forward ?? anchor;
  const fileLeaf = resolveLeafId(merged.append) ?? null;
  const back =
    wanted !== fileLeaf
      ? [
          buildMoveEntry({
            id: newEntryId(byId),
            timestamp: new Date().toISOString(),
            targetId: wanted,
            fromId: fileLeaf,
          }),
        ]
      : [];
  const written = await appendEntries(ctx.db, row.id, [...merged.append, ...back]);
  // Refused while a run writes this session: read again next round.
  if (!written.ok) return done(0);
  next.mergedSeqs = [...state.mergedSeqs, written.value.lastSeq];
  next.held = [...state.held, ...back];
  await saveSessionState(ctx.db, row.id, next);
  return done(merged.append.length);
}

/** This device's entries not on the target yet (local chunks pushedSeq+1..maxSeq, merges left out). */
function freshLines(ctx: RoundContext, row: SessionRow, state: SessionSyncState, maxSeq: number) {
  return localLines(
    ctx.db,
    row.id,
    state.pushedSeq,
    (seq) => seq <= maxSeq && !state.mergedSeqs.includes(seq),
  );
}

/** Entries of this device still to upload (what the status shows as waiting). */
export async function waitingEntries(
  ctx: Pick<RoundContext, "db">,
  row: SessionRow,
  state: SessionSyncState,
) {
  // With an upload in pieces under way, where the entries it planned end.
  let plannedEnd = 0;
  const maxSeq = state.pushing?.maxSeq ?? 0;
  const fresh = await localLines(
    ctx.db,
    row.id,
    state.pushedSeq,
    (seq) => !state.mergedSeqs.includes(seq),
    (seq, end) => {
      if (seq <= maxSeq) plannedEnd = end;
    },
  );
  if (!state.pushing) return waitingCount(fresh.entries);
  // The pieces already up are not waiting.
  const planned = fresh.entries.slice(0, plannedEnd);
  return (
    waitingCount(fresh.entries) -
    waitingCount(planPush(state.held, planned).send.slice(0, state.pushing.sent))
  );
}

/** The lines of `entries` in upload pieces of about PIECE_CHARS. */
function pieces(entries: readonly SessionEntry[], lineOf: (e: SessionEntry) => string): string[][] {
  const out: string[][] = [];
  let piece: string[] = [];
  let size = 0;
  for (const e of entries) {
    const line = lineOf(e);
    if (piece.length > 0 && size + line.length + 1 > PIECE_CHARS) {
      out.push(piece);
      piece = [];
      size = 0;
    }
    piece.push(line);
    size += line.length + 1;
  }
  if (piece.length > 0) out.push(piece);
  return out;
}

/** Uploads this device's new entries. Returns how many were uploaded. */
export async function pushSession(
  ctx: RoundContext,
  row: SessionRow,
  state: SessionSyncState,
): Promise<SyncResult<number>> {
  const maxSeq = state.pushing?.maxSeq ?? row.lastSeq;
  const fresh = await freshLines(ctx, row, state, maxSeq);
  const lines = linesByEntry(fresh);
  const plan = planPush(state.held, fresh.entries);
  let sent = state.pushing?.sent ?? 0;
  // Stored lines go up as they are; a marker kept back from an earlier round is written anew.
  const todo = pieces(plan.send.slice(sent), (e) => lines.get(e) ?? JSON.stringify(e));
  const total = plan.send.length;
  let uploaded = 0;
  let current: SessionSyncState = state;
  for (const piece of todo) {
    const record = ctx.own.sessions[row.id];
    const seq = (record?.chunks ?? 0) + 1;
    const folders = await ctx.io.store.ensureFolders(chunkFolders(row.id));
    if (!folders.ok) return folders;
    const bytes = await runStepsInSlices(
      encodeChunkBytesSteps({ session: row.id, device: ctx.device, seq }, piece),
      SYNC_SLICE_MS,
    );
    const put = await writeBytes(ctx.io, chunkKey(row.id, ctx.device, seq), bytes, CHUNK_TYPE);
    if (!put.ok) return put;
    sent += piece.length;
    uploaded += piece.length;
    ctx.own = {
      ...ctx.own,
      sessions: {
        ...ctx.own.sessions,
        [row.id]: {
          header: row.header,
          chunks: seq,
          entries: (record?.entries ?? 0) + piece.length,
          bytes: (record?.bytes ?? 0) + bytes.length,
          title: sessionTitle(row),
        },
      },
    };
    current = { ...current, pushing: { maxSeq, sent } };
    await saveAfterChunk(ctx.db, ctx.own, row.id, current);
    ctx.onProgress?.(row.id, sent, total);
  }
  const { pushing: _, ...rest } = current;
  const finished: SessionSyncState = {
    ...rest,
    pushedSeq: maxSeq,
    held: plan.held,
    mergedSeqs: current.mergedSeqs.filter((s) => s > maxSeq),
  };
  // The title travels with the session even when nothing new was uploaded (a rename on another device).
  const record = ctx.own.sessions[row.id];
  if (record && record.title !== sessionTitle(row))
    ctx.own = {
      ...ctx.own,
      sessions: { ...ctx.own.sessions, [row.id]: { ...record, title: sessionTitle(row) } },
    };
  await saveAfterChunk(ctx.db, ctx.own, row.id, finished);
  return done(uploaded);
}
