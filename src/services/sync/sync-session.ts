/**
 * One session's part of a sync round: pull (read the chunks other devices wrote since last time,
 * merge them in by id, keep this device's position unless the new entries continue its branch)
 * and push (upload this device's new entries as new immutable chunks, in pieces, resumable).
 */
import { buildMoveEntry, isMoveEntry, isPositionMarker } from "../../core/session/moves.ts";
import { sessionTitle } from "../../core/session/session-name.ts";
import type { Steps } from "../../core/session/steps.ts";
import { resolveLeafId } from "../../core/session/tree.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { isLeafEntry } from "../../core/session/types.ts";
import { decodeChunkSteps, lineRanges, sealChunkLines } from "../../core/sync/chunk-format.ts";
import { eachLineSteps, type ParsedLines } from "../../core/sync/jsonl-lines.ts";
import { chunkFolders, chunkKey } from "../../core/sync/layout.ts";
import { type DeviceManifest, unreadChunks } from "../../core/sync/manifest.ts";
import { mergeEntries, positionAfterMerge } from "../../core/sync/merge.ts";
import { type PlanItem, planItem, planPushItemsSteps, waitingCount } from "../../core/sync/push-plan.ts";
import {
  appendEntries,
  type ChunkRow,
  type CutpointDb,
  chunkBytes,
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
 * Target size of an uploaded chunk's JSONL (UTF-8 bytes). Each is
 * encrypted and decrypted whole (AES-GCM), the longest native step on the page: 512 KB rather
 * than 1 MB halves it (e2e/bench/sync.bench.ts).
 */
export const PIECE_BYTES = 512 * 1024;
/**
 * Work per task while sync parses, merges or builds a big session (a first sync of 100 MB):
 * the page paints and answers between slices.
 */
export const SYNC_SLICE_MS = 10;
const CHUNK_TYPE = "application/x-ndjson";

/** One chunk as read from the target: its plain bytes and the entries (with their lines) it holds. */
export interface ReadChunk extends ParsedLines {
  device: string;
  seq: number;
  bytes: Uint8Array;
}

/**
 * Reads chunks in order, per device stopping at the first one not (completely) there yet, and
 * hands each to `use` as it is read (nothing of it is kept here). Returns the last seq read per device.
 */
export async function eachChunk(
  ctx: RoundContext,
  session: string,
  refs: readonly { device: string; seq: number }[],
  use: (chunk: ReadChunk) => Promise<void>,
): Promise<SyncResult<Record<string, number>>> {
  const read: Record<string, number> = {};
  const stopped = new Set<string>();
  for (const ref of refs) {
    if (stopped.has(ref.device)) continue;
    const bytes = await readBytes(ctx.io, chunkKey(session, ref.device, ref.seq));
    if (!bytes.ok) return bytes;
    const plain = bytes.value;
    const decoded =
      plain === null
        ? undefined
        : await runStepsInSlices(decodeChunkSteps(decodedPieces(plain), { session, ...ref }), SYNC_SLICE_MS);
    if (!decoded?.ok || plain === null) {
      // Not there or half-written: read again next round.
      stopped.add(ref.device);
      continue;
    }
    await use({ ...ref, bytes: plain, entries: decoded.entries, lines: decoded.lines });
    read[ref.device] = ref.seq;
  }
  return done(read);
}

/** Reads chunks in order (see `eachChunk`), their entries kept together. */
export async function readChunkEntries(
  ctx: RoundContext,
  session: string,
  refs: readonly { device: string; seq: number }[],
): Promise<SyncResult<ParsedLines & { read: Record<string, number> }>> {
  const entries: SessionEntry[] = [];
  const lines: string[] = [];
  const read = await eachChunk(ctx, session, refs, async (chunk) => {
    for (let i = 0; i < chunk.entries.length; i++) {
      entries.push(chunk.entries[i]!);
      lines.push(chunk.lines[i]!);
    }
  });
  if (!read.ok) return read;
  return done({ entries, lines, read: read.value });
}

/** The entry a position stands for (a move's target, a `leaf` entry's target). */
function shownPosition(byId: ReadonlyMap<string, KeptItem>, leafId: string | null): string | null {
  const leaf = leafId === null ? undefined : byId.get(leafId);
  if (!leaf) return leafId;
  const entry = leaf.entry;
  if (entry && isMoveEntry(entry)) return entry.parentId;
  if (entry && isLeafEntry(entry)) return typeof entry.targetId === "string" ? entry.targetId : null;
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
  // What the merge and the position need of the session here (not its entries: it may be 100 MB).
  const local = await planItemsOf(await readChunks(ctx.db, row.id));
  const byId = new Map(local.map((item) => [item.id, item] as const));
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
  for (const e of merged.append) byId.set(e.id, keptItem(e, -1));
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

/** A session's local chunks after `afterSeq` that `keep` accepts (their data are handles: read as needed). */
async function keptChunks(
  db: CutpointDb,
  sessionId: string,
  afterSeq: number,
  keep: (seq: number) => boolean,
) {
  return (await readChunks(db, sessionId, afterSeq)).filter((chunk) => keep(chunk.seq));
}

/** This device's chunks not on the target yet (pushedSeq+1..maxSeq, merges left out). */
const freshChunks = (db: CutpointDb, row: SessionRow, state: SessionSyncState, maxSeq: number) =>
  keptChunks(db, row.id, state.pushedSeq, (seq) => seq <= maxSeq && !state.mergedSeqs.includes(seq));

/**
 * A plan item that keeps its entry when it is a marker (the plan may keep it back: it is saved),
 * and its place among the lines read (-1: a marker kept back in an earlier round).
 */
type KeptItem = PlanItem & { entry?: SessionEntry; index: number };

function keptItem(entry: SessionEntry, index: number): KeptItem {
  const item = planItem(entry);
  return item.marker ? { ...item, entry, index } : { ...item, index };
}

function* planItemSteps(pieces: Iterable<string>, into: KeptItem[]): Steps<void> {
  for (const piece of pieces) yield* eachLineSteps(piece, (entry) => into.push(keptItem(entry, into.length)));
}

/**
 * What the push plan needs of each entry of `chunks`, in order (parsed in slices; the entries are
 * not kept); `onChunk` learns where each chunk's entries end.
 */
async function planItemsOf(
  chunks: readonly ChunkRow[],
  onChunk?: (seq: number, end: number) => void,
): Promise<KeptItem[]> {
  const out: KeptItem[] = [];
  for (const chunk of chunks) {
    await runStepsInSlices(planItemSteps(decodedPieces(await chunkBytes(chunk.data)), out), SYNC_SLICE_MS);
    onChunk?.(chunk.seq, out.length);
  }
  return out;
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
  const chunks = await keptChunks(ctx.db, row.id, state.pushedSeq, (seq) => !state.mergedSeqs.includes(seq));
  const fresh = await planItemsOf(chunks, (seq, end) => {
    if (seq <= maxSeq) plannedEnd = end;
  });
  if (!state.pushing) return waitingCount(fresh);
  // The pieces already up are not waiting.
  const planned = fresh.slice(0, plannedEnd);
  const plan = await runStepsInSlices(planPushItemsSteps(state.held.map(planItem), planned), SYNC_SLICE_MS);
  return waitingCount(fresh) - waitingCount(plan.send.slice(0, state.pushing.sent));
}

/**
 * The lines to upload as UTF-8 bytes, in the plan's order, after the first `skip` (sent before a
 * dropped connection): the markers kept back earlier (written anew), then the stored lines of
 * `chunks` the plan sends (`sendFresh`, by their place among the chunks' lines), as they are
 * stored. One stored chunk is read at a time; its lines come as one batch.
 */
async function* sendLines(
  chunks: readonly ChunkRow[],
  heldSent: readonly SessionEntry[],
  sendFresh: Uint8Array,
  skip: number,
): AsyncGenerator<Uint8Array[]> {
  let at = 0;
  const utf8 = new TextEncoder();
  yield heldSent.filter(() => at++ >= skip).map((entry) => utf8.encode(JSON.stringify(entry)));
  let index = 0;
  for (const chunk of chunks) {
    const bytes = await chunkBytes(chunk.data);
    const lines: Uint8Array[] = [];
    for (const [start, end] of lineRanges(bytes))
      if (sendFresh[index++] === 1 && at++ >= skip) lines.push(bytes.subarray(start, end));
    yield lines;
  }
}

/** Uploads this device's new entries. Returns how many were uploaded. */
export async function pushSession(
  ctx: RoundContext,
  row: SessionRow,
  state: SessionSyncState,
): Promise<SyncResult<number>> {
  const maxSeq = state.pushing?.maxSeq ?? row.lastSeq;
  const chunks = await freshChunks(ctx.db, row, state, maxSeq);
  const fresh = await planItemsOf(chunks);
  const held = state.held.map((entry) => keptItem(entry, -1));
  const plan = await runStepsInSlices(planPushItemsSteps(held, fresh), SYNC_SLICE_MS);
  const sendFresh = new Uint8Array(fresh.length);
  const heldSent: SessionEntry[] = [];
  for (const item of plan.send) {
    if (item.index === -1) heldSent.push(item.entry!);
    else sendFresh[item.index] = 1;
  }
  let sent = state.pushing?.sent ?? 0;
  const total = plan.send.length;
  let uploaded = 0;
  let current: SessionSyncState = state;
  const upload = async (piece: Uint8Array[]): Promise<SyncResult<void>> => {
    const record = ctx.own.sessions[row.id];
    const seq = (record?.chunks ?? 0) + 1;
    const folders = await ctx.io.store.ensureFolders(chunkFolders(row.id));
    if (!folders.ok) return folders;
    const bytes = sealChunkLines({ session: row.id, device: ctx.device, seq }, piece);
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
    return done(undefined);
  };
  // Pieces of about PIECE_BYTES, each uploaded as soon as it is full.
  let piece: Uint8Array[] = [];
  let size = 0;
  for await (const lines of sendLines(chunks, heldSent, sendFresh, sent))
    for (const line of lines) {
      if (piece.length > 0 && size + line.length + 1 > PIECE_BYTES) {
        const put = await upload(piece);
        if (!put.ok) return put;
        piece = [];
        size = 0;
      }
      piece.push(line);
      size += line.length + 1;
    }
  if (piece.length > 0) {
    const put = await upload(piece);
    if (!put.ok) return put;
  }
  const { pushing: _, ...rest } = current;
  const finished: SessionSyncState = {
    ...rest,
    pushedSeq: maxSeq,
    // Only markers are kept back, and a marker keeps its entry.
    held: plan.held.map((item) => item.entry!),
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
