/**
 * The reads of a stored session for the session view and the agent (services/session/session-loader.ts
 * parses them): its row, single chunks and chunk ranges, and the chunks appended after a given
 * one together with the row, read in one transaction so the leaf and the entries agree.
 */
import type { ChunkRow, CutpointDb, SessionRow } from "./schema.ts";
import { getSession } from "./sessions-repo.ts";

export async function readChunk(
  db: CutpointDb,
  sessionId: string,
  seq: number,
): Promise<ChunkRow | undefined> {
  return db.chunks.get([sessionId, seq]);
}

/** Chunks `from`..`to` (inclusive) of a session, in order. */
export async function readChunkSpan(
  db: CutpointDb,
  sessionId: string,
  from: number,
  to: number,
): Promise<ChunkRow[]> {
  return db.chunks.where("[sessionId+seq]").between([sessionId, from], [sessionId, to], true, true).toArray();
}

/** The row and the chunks after `afterSeq`, as one consistent snapshot (undefined: no session). */
export async function readSessionSince(
  db: CutpointDb,
  sessionId: string,
  afterSeq: number,
): Promise<{ row: SessionRow; chunks: ChunkRow[] } | undefined> {
  return db.transaction("r", db.sessions, db.chunks, async () => {
    const row = await getSession(db, sessionId);
    if (!row) return undefined;
    const chunks = await readChunkSpan(db, sessionId, afterSeq + 1, Number.MAX_SAFE_INTEGER);
    return { row, chunks };
  });
}
