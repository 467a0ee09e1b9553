/**
 * How this database keeps a chunk's bytes: as a Blob (the fast layout, chunks.ts) where the
 * engine accepts Blobs in IndexedDB, else as the bytes themselves (a Uint8Array; a string when
 * small). WebKit refuses Blob values in a private window (and in every WebDriver session, which is
 * one): `put` fails with "Error preparing Blob/File data…" (or, in older versions, throws
 * DataCloneError), so every import and the example failed there. Found once per database by
 * writing a Blob row in a transaction that is then aborted (nothing is kept); readers and the
 * export take either form, and the export's bytes are the same.
 */
import type { Dexie } from "dexie";

export type ChunkForm = "blob" | "bytes";

/** The chunk form of one database: asked once, then known. */
export interface ChunkStorage {
  /** Finds the form (once; later calls answer at once). */
  form(): Promise<ChunkForm>;
  /** The form when already found, else undefined (callers inside a transaction take bytes then). */
  known(): ChunkForm | undefined;
  /** A write of Blobs was refused after all: from now on bytes. */
  refuseBlobs(): void;
}

/** The key of the probe row (no session has this id: session ids are UUIDs). */
const PROBE_SESSION = "\u0000cutpoint-blob-probe";

class ProbeDone extends Error {}

/** Writes a Blob row into `table` and aborts: "blob" when the put succeeded. */
export async function probeChunkForm(db: Dexie, table = "chunks"): Promise<ChunkForm> {
  const done = new ProbeDone("probe done");
  try {
    await db.transaction("rw", table, async (tx) => {
      await tx.table(table).put({
        sessionId: PROBE_SESSION,
        seq: 0,
        generation: 0,
        count: 0,
        bytes: 1,
        data: new Blob(["\n"], { type: "application/x-ndjson" }),
      });
      throw done;
    });
    return "blob";
  } catch (e) {
    return e === done ? "blob" : "bytes";
  }
}

/** The chunk storage of `db`; `fixed` skips the probe (tests, and engines known beforehand). */
export function createChunkStorage(db: Dexie, fixed?: ChunkForm): ChunkStorage {
  let found: ChunkForm | undefined = fixed;
  let asking: Promise<ChunkForm> | undefined;
  return {
    form() {
      if (found) return Promise.resolve(found);
      asking ??= probeChunkForm(db).then((form) => {
        found ??= form;
        return found;
      });
      return asking;
    },
    known: () => found,
    refuseBlobs() {
      found = "bytes";
    },
  };
}

/**
 * Whether an IndexedDB/Dexie error is the engine refusing a Blob value (WebKit: UnknownError
 * "Error preparing Blob/File data to be stored in object store"; older WebKit: DataCloneError
 * "BlobURLs are not yet supported"). Dexie wraps the DOMException (`inner`).
 */
export function isBlobRefusal(e: unknown): boolean {
  for (let err = e, depth = 0; err && typeof err === "object" && depth < 3; depth++) {
    const { name, message } = err as { name?: unknown; message?: unknown };
    if (name === "DataCloneError") return true;
    if (typeof message === "string" && /\b(Blob|BlobURLs?)\b/.test(message)) return true;
    err = (err as { inner?: unknown }).inner;
  }
  return false;
}
