/**
 * Fetching a session that is only on the target: every device's chunks of it read, merged by id
 * and turned into stored chunks one at a time (a chunk's entries are dropped once it is merged, so
 * a 100 MB session is never held in the page), then stored as a new local session in one
 * transaction: whole or not at all.
 */
import type { SessionEntry } from "../../core/session/types.ts";
import { chunkBody } from "../../core/sync/chunk-format.ts";
import { linesByEntry } from "../../core/sync/jsonl-lines.ts";
import type { RemoteSession } from "../../core/sync/manifest.ts";
import { createMerger } from "../../core/sync/merge.ts";
import {
  blobChunk,
  bytesChunk,
  CHUNK_MAX_ENTRIES,
  chunkSteps,
  createChunkJoiner,
  createMetaAccumulator,
  saveSession,
} from "../../db/index.ts";
import { runStepsInSlices } from "../common/yield.ts";
import { eachChunk, type ReadChunk, type RoundContext, SYNC_SLICE_MS } from "./sync-session.ts";
import { loadSessionState, saveSessionState } from "./sync-state.ts";
import { done, failed, type SyncResult } from "./sync-transport.ts";

/** Stored chunks made of lines are Blobs of about this many characters, one per step. */
const PART_CHARS = 32 * 1024;

/** The chunk's own bytes when the merge took all of its entries as they are (the usual case). */
function wholeBody(chunk: ReadChunk, appended: readonly SessionEntry[]): Uint8Array | undefined {
  const n = chunk.entries.length;
  if (appended.length !== n || n > CHUNK_MAX_ENTRIES) return undefined;
  for (let i = 0; i < n; i++) if (appended[i] !== chunk.entries[i]) return undefined;
  return chunkBody(chunk.bytes, n);
}

export async function fetchInto(ctx: RoundContext, remote: RemoteSession): Promise<SyncResult<void>> {
  const refs = ctx.manifests
    .filter((m) => m.sessions[remote.id])
    .flatMap((m) =>
      Array.from({ length: m.sessions[remote.id]!.chunks }, (_, i) => ({ device: m.device, seq: i + 1 })),
    );
  const merger = createMerger(new Set());
  const meta = createMetaAccumulator();
  const stored = createChunkJoiner();
  /** The lines of entries that wait for their parent (until it comes). */
  const waitingLines = new Map<SessionEntry, string>();
  const read = await eachChunk(ctx, remote.id, refs, async (chunk) => {
    const appended = await runStepsInSlices(merger.add(chunk.entries), SYNC_SLICE_MS);
    for (const entry of appended) meta.add(entry);
    const body = wholeBody(chunk, appended);
    if (body) {
      stored.add(bytesChunk(body, appended.length));
      return;
    }
    const lineOf = linesByEntry(chunk);
    for (const entry of chunk.entries) if (merger.waits(entry)) waitingLines.set(entry, lineOf.get(entry)!);
    const lineOfAppended = (i: number) => {
      const entry = appended[i]!;
      const line = lineOf.get(entry) ?? waitingLines.get(entry)!;
      waitingLines.delete(entry);
      return line;
    };
    const parts = await runStepsInSlices(
      chunkSteps(appended.length, lineOfAppended, blobChunk, PART_CHARS),
      SYNC_SLICE_MS,
    );
    for (const part of parts) stored.add(part);
  });
  if (!read.ok) return read;
  const chunks = stored.end();
  const prepared = { header: remote.header, chunks, meta: meta.result(), originalVersion: 3 };
  const saved = await saveSession(ctx.db, prepared, "new");
  if (!saved.ok) return failed("other", saved.error.message);
  const state = await loadSessionState(ctx.db, remote.id, saved.value.generation);
  const { [ctx.device]: _, ...others } = read.value;
  await saveSessionState(ctx.db, remote.id, {
    ...state,
    pushedSeq: saved.value.lastSeq,
    read: others,
    waiting: merger.waiting(),
    deletedBySync: false,
  });
  return done(undefined);
}
