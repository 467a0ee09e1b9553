/**
 * Reading a stored session's chunks as decoded JSONL text, in order, in parts of whole lines of
 * ~16 KB (db/chunks.ts `decodedPieces`; the loader parses them in slices). The next span of
 * chunks is requested from IndexedDB before the current one is decoded. A chunk of another generation (the session was replaced by a
 * re-import meanwhile) ends the read with "replaced".
 */
import { type ChunkRow, type CutpointDb, chunkBytes, decodedPieces, readChunkSpan } from "../../db/index.ts";
import type { ReadPart } from "./read-parts-protocol.ts";

/**
 * Most chunks read per IndexedDB request (~16 MB of imported 2 MB chunks, ~4 MB of 512 KB ones);
 * the first requests read 1, 2, 4 chunks, so that the first text is soon ready.
 */
export const READ_SPAN = 8;

export interface ReadSpec {
  sessionId: string;
  generation: number;
  from: number;
  to: number;
}

async function readSpan(
  db: CutpointDb,
  spec: ReadSpec,
  from: number,
  to: number,
): Promise<[ChunkRow[], Uint8Array[]]> {
  const rows = await readChunkSpan(db, spec.sessionId, from, to);
  if (rows.some((c) => c.generation !== spec.generation)) return [rows, []];
  return [rows, await Promise.all(rows.map((c) => chunkBytes(c.data)))];
}

/** The text of chunks `from`..`to`, in file order, as parts. */
export async function* readSessionParts(
  db: CutpointDb,
  spec: ReadSpec,
  /** Adds the time spent waiting for IndexedDB and decoding (ms). */
  spent?: { waited: number; decode: number },
): AsyncGenerator<ReadPart> {
  let span = 1;
  const request = (from: number) => {
    const to = Math.min(spec.to, from + span - 1);
    span = Math.min(READ_SPAN, 2 * span);
    return { to, read: readSpan(db, spec, from, to) };
  };
  let next = spec.from <= spec.to ? request(spec.from) : undefined;
  while (next !== undefined) {
    const w0 = performance.now();
    const [rows, bytes] = await next.read;
    if (spent) spent.waited += performance.now() - w0;
    if (rows.some((c) => c.generation !== spec.generation)) {
      yield { kind: "replaced" };
      return;
    }
    next = next.to < spec.to ? request(next.to + 1) : undefined;
    for (let k = 0; k < rows.length; k++) {
      const pieces = decodedPieces(bytes[k]!);
      for (;;) {
        const d0 = performance.now();
        const piece = pieces.next();
        if (spent) spent.decode += performance.now() - d0;
        if (piece.done) break;
        yield { kind: "text", text: piece.value, seq: rows[k]!.seq };
      }
    }
  }
}
