/**
 * After a session is loaded whole and shown: stores the token counts of its chunks that have
 * none yet, or wrong ones (an import, a session stored before counts were kept, the chunks
 * appended since), so that the next open reads them instead of counting every message again
 * (the loader seeds them: core/compaction/stored-estimates.ts). The counts are already made by
 * then (pi's estimator caches them); this only copies them out, a few chunks per task, and
 * writes them in transactions of about WRITE_BATCH_CHARS (a transaction's rows are serialized on
 * the page in one task: 100 MB's outlines at once held it 0.16-0.42 s). Derived data: a write
 * cut between two batches only leaves some chunks to count again. Each chunk's outline (core/session/outline.ts) is written with
 * its counts, and a chunk stored without one, or with another, gets it.
 */
import { chunkEstimates } from "../../core/compaction/stored-estimates.ts";
import { chunkOutline } from "../../core/session/outline.ts";
import {
  type CutpointDb,
  ok,
  type Result,
  readChunkSpan,
  readChunkTokens,
  saveChunkTokens,
} from "../../db/index.ts";
import { yieldToEventLoop } from "../common/yield.ts";
import type { LoadedSession } from "./loaded-session.ts";
import type { SessionHandover } from "./session-handover.ts";

/** Work per task while the counts are copied out (ms). */
const SLICE_MS = 8;
/** Outline characters (and count bytes) written per transaction. */
const WRITE_BATCH_CHARS = 1024 * 1024;

function sameCounts(a: Uint32Array | undefined, b: Uint32Array): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Writes the counts and outline of `loaded`'s chunks (1..lastSeq) whose counts are missing or
 * differ from what was counted, or whose outline is missing or not the one made now (a stored
 * row the loader did not use, see `seedEstimates` and services/session/outline-load.ts); returns how many chunks were
 * written. Writes nothing when the entries do not line up with the stored chunks, or when the
 * session was replaced or removed meanwhile.
 */
export async function storeEstimates(
  db: CutpointDb,
  loaded: LoadedSession,
  signal?: AbortSignal,
  handover?: SessionHandover,
  batchChars = WRITE_BATCH_CHARS,
): Promise<Result<number>> {
  const [chunks, have] = await Promise.all([
    readChunkSpan(db, loaded.id, 1, loaded.lastSeq),
    readChunkTokens(db, loaded.id, loaded.generation),
  ]);
  const missing: { seq: number; tokens: Uint32Array; outline: string }[] = [];
  let at = 0;
  let sliceStart = performance.now();
  for (const chunk of chunks) {
    if (chunk.generation !== loaded.generation || at + chunk.count > loaded.entries.length) return ok(0);
    const tokens = chunkEstimates(loaded.entries, at, chunk.count);
    const stored = have.get(chunk.seq);
    const outline = chunkOutline(loaded.entries, at, chunk.count);
    if (!sameCounts(stored?.tokens, tokens) || stored?.outline !== outline)
      missing.push({ seq: chunk.seq, tokens, outline });
    at += chunk.count;
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToEventLoop();
      if (signal?.aborted) return ok(0);
      sliceStart = performance.now();
    }
  }
  if (at !== loaded.entries.length || signal?.aborted) return ok(0);
  let written = 0;
  for (let i = 0; i < missing.length; ) {
    const batch: typeof missing = [];
    for (let chars = 0; i < missing.length && (batch.length === 0 || chars < batchChars); i++) {
      chars += missing[i]!.outline.length + 4 * missing[i]!.tokens.length;
      batch.push(missing[i]!);
    }
    const saved = await saveChunkTokens(db, loaded.id, loaded.generation, batch);
    if (!saved.ok) return saved;
    // 0: the session was replaced or removed meanwhile; nothing more is written.
    if (saved.value === 0) return ok(written);
    written += saved.value;
    if (i < missing.length) {
      await yieldToEventLoop();
      if (signal?.aborted) return ok(written);
    }
  }
  // Every chunk's counts are stored now: a switch back to these entries stores nothing again.
  handover?.noteCountsStored(loaded.id, loaded.generation, loaded.lastSeq);
  return ok(written);
}
