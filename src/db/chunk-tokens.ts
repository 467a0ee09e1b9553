/**
 * The stored token estimates of a session's chunks and their outlines (`chunkTokens`, schema
 * v4): read when the session is opened, written once its entries are counted
 * (services/session/store-token-counts.ts). Derived data: a row of another generation or counting rule is
 * never used, and a failed read only means counting (and reading) again.
 */
import { STORED_ESTIMATE_RULE } from "../core/compaction/stored-estimates.ts";
import { outlineIsCurrent } from "../core/session/outline.ts";
import { ok, type Result, toDbError } from "./result.ts";
import type { ChunkTokensRow, CutpointDb } from "./schema.ts";

function sessionRows(db: CutpointDb, sessionId: string) {
  return db.chunkTokens
    .where("[sessionId+seq]")
    .between([sessionId, 0], [sessionId, Number.MAX_SAFE_INTEGER], true, true);
}

/** What is stored of a chunk beside its entries: its token counts, and its outline when one was made. */
export interface ChunkDerived {
  tokens: Uint32Array;
  outline?: string;
}

/** The stored counts (and outlines) of the session's chunks of `generation`, by chunk seq (empty when none or unreadable). */
export async function readChunkTokens(
  db: CutpointDb,
  sessionId: string,
  generation: number,
): Promise<Map<number, ChunkDerived>> {
  const out = new Map<number, ChunkDerived>();
  try {
    for (const row of await sessionRows(db, sessionId).toArray())
      if (
        row.generation === generation &&
        row.rule === STORED_ESTIMATE_RULE &&
        row.tokens instanceof Uint32Array
      )
        out.set(row.seq, {
          tokens: row.tokens,
          // An outline of another rule is as good as none (it is made again).
          outline: typeof row.outline === "string" && outlineIsCurrent(row.outline) ? row.outline : undefined,
        });
  } catch (e) {
    console.warn("reading the stored token estimates failed; counting them again", e);
  }
  return out;
}

/**
 * Stores the counts of some chunks, in one transaction; writes nothing (0) when the session is
 * gone or was replaced since (`generation`). Returns how many rows were written.
 */
export async function saveChunkTokens(
  db: CutpointDb,
  sessionId: string,
  generation: number,
  chunks: readonly { seq: number; tokens: Uint32Array; outline?: string }[],
): Promise<Result<number>> {
  try {
    return await db.transaction("rw", db.sessions, db.chunkTokens, async () => {
      const row = await db.sessions.get(sessionId);
      if (!row || row.generation !== generation) return ok(0);
      const rows: ChunkTokensRow[] = chunks.map((c) => ({
        sessionId,
        seq: c.seq,
        generation,
        rule: STORED_ESTIMATE_RULE,
        tokens: c.tokens,
        ...(c.outline === undefined ? {} : { outline: c.outline }),
      }));
      await db.chunkTokens.bulkPut(rows);
      return ok(rows.length);
    });
  } catch (e) {
    return toDbError(e);
  }
}

/** Removes every stored count of a session (inside the caller's transaction when there is one). */
export async function deleteChunkTokens(db: CutpointDb, sessionId: string): Promise<void> {
  await sessionRows(db, sessionId).delete();
}
