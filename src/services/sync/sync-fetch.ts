/**
 * Fetching a session that is only on the target: every device's chunks of it read and merged by
 * id, then stored as a new local session. Built in slices (parse, merge, the stored chunks made of
 * the lines as read), so that a 100 MB session never holds the page for long.
 */
import { linesByEntry } from "../../core/sync/jsonl-lines.ts";
import type { RemoteSession } from "../../core/sync/manifest.ts";
import { mergeEntriesSteps } from "../../core/sync/merge.ts";
import { blobChunk, chunkSteps, createMetaAccumulator, joinBlobChunks, saveSession } from "../../db/index.ts";
import { runStepsInSlices } from "../common/yield.ts";
import { type RoundContext, readChunkEntries, SYNC_SLICE_MS } from "./sync-session.ts";
import { loadSessionState, saveSessionState } from "./sync-state.ts";
import { done, failed, type SyncResult } from "./sync-transport.ts";

/** The stored chunks are made of Blobs of about this many characters, one per step. */
const PART_CHARS = 32 * 1024;

export async function fetchInto(ctx: RoundContext, remote: RemoteSession): Promise<SyncResult<void>> {
  const refs = ctx.manifests
    .filter((m) => m.sessions[remote.id])
    .flatMap((m) =>
      Array.from({ length: m.sessions[remote.id]!.chunks }, (_, i) => ({ device: m.device, seq: i + 1 })),
    );
  const got = await readChunkEntries(ctx, remote.id, refs);
  if (!got.ok) return got;
  const lineOf = linesByEntry(got.value);
  const merged = await runStepsInSlices(mergeEntriesSteps(new Set(), got.value.entries), SYNC_SLICE_MS);
  const meta = createMetaAccumulator();
  const parts = await runStepsInSlices(
    chunkSteps(
      merged.append.length,
      (i) => {
        const entry = merged.append[i]!;
        meta.add(entry);
        return lineOf.get(entry)!;
      },
      blobChunk,
      PART_CHARS,
    ),
    SYNC_SLICE_MS,
  );
  const chunks = joinBlobChunks(parts);
  const prepared = { header: remote.header, chunks, meta: meta.result(), originalVersion: 3 };
  const saved = await saveSession(ctx.db, prepared, "new");
  if (!saved.ok) return failed("other", saved.error.message);
  const state = await loadSessionState(ctx.db, remote.id, saved.value.generation);
  const { [ctx.device]: _, ...read } = got.value.read;
  await saveSessionState(ctx.db, remote.id, {
    ...state,
    pushedSeq: saved.value.lastSeq,
    read,
    waiting: merged.waiting,
    deletedBySync: false,
  });
  return done(undefined);
}
