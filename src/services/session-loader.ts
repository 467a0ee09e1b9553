/**
 * Reading a stored session into memory for the session view (and the agent/compaction UIs).
 *
 * - First the last chunks (the newest entries, where the leaf is): `onPreview` gets them so the
 *   timeline can show its end while the rest loads. A preview is NOT the whole session: never
 *   plan or build a context from it.
 * - Then every chunk, in batches of a few MB, parsed in slices of ~12 ms with yields to the
 *   event loop, so a 100 MB session never blocks the page for long. `onEntries` sees the entries
 *   as they are parsed, inside the same slices (to fill caches that opening the session needs).
 * - Later, only the chunks appended since (entries are append-only): `loadNewEntries`, or
 *   `catchUp` for the row and the entries as one snapshot (the agent plans on it).
 *
 * Every read goes through src/db (session-reads.ts); this file only parses.
 */
import type { SessionEntry, SessionHeader } from "../core/session/types.ts";
import {
  type ChunkRow,
  type CutpointDb,
  chunkBytes,
  createChunkReader,
  getSession,
  parseChunkBytes,
  readChunk,
  readChunkSpan,
  readSessionSince,
  type SessionRow,
} from "../db/index.ts";

export interface LoadedSession {
  id: string;
  header: SessionHeader;
  /** Entries in file order. Replaced (never mutated) when new entries arrive. */
  entries: SessionEntry[];
  generation: number;
  lastSeq: number;
}

/** Chunks read per IndexedDB request (~4 MB with 512 KB chunks). */
const BATCH = 8;
/** Entries wanted in the preview (the newest ones). */
const PREVIEW_ENTRIES = 300;
const SLICE_MS = 12;
/** Progress reports at most this often (each one re-renders the session view). */
const PROGRESS_MS = 100;

/** Lines parsed between two looks at the clock. */
const LINES_PER_CHECK = 64;

type SchedulerLike = { yield?: () => Promise<void> };

/** Lets the page paint and handle input: `scheduler.yield()` where there is one (no 4 ms clamp). */
export const yieldToEventLoop = (): Promise<void> => {
  const scheduler = (globalThis as { scheduler?: SchedulerLike }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise<void>((resolve) => setTimeout(resolve, 0));
};

export interface LoadOptions {
  onProgress?: (fraction: number) => void;
  onPreview?: (preview: LoadedSession) => void;
  /** Called after each few parsed lines: `entries[from..]` are new. Keep it cheap per entry. */
  onEntries?: (entries: readonly SessionEntry[], from: number) => void;
  signal?: AbortSignal;
}

/** Loads a whole session; undefined when it does not exist (or the load was aborted). */
export async function loadSession(
  db: CutpointDb,
  sessionId: string,
  options: LoadOptions = {},
): Promise<LoadedSession | undefined> {
  const { onProgress, onPreview, onEntries, signal } = options;
  const row = await getSession(db, sessionId);
  if (!row || row.deletedAt || signal?.aborted) return undefined;
  const { generation, lastSeq, header } = row;
  const base = { id: sessionId, header, generation, lastSeq };

  if (onPreview && lastSeq > 1) {
    const tail: ChunkRow[] = [];
    let count = 0;
    for (let seq = lastSeq; seq >= 1 && count < PREVIEW_ENTRIES; seq--) {
      const chunk = await readChunk(db, sessionId, seq);
      if (!chunk) break;
      tail.unshift(chunk);
      count += chunk.count;
    }
    if (signal?.aborted) return undefined;
    if (tail.length < lastSeq && tail.every((c) => c.generation === generation)) {
      const bytes = await Promise.all(tail.map((c) => chunkBytes(c.data)));
      if (signal?.aborted) return undefined;
      onPreview({ ...base, entries: bytes.flatMap(parseChunkBytes) });
    }
  }

  const entries: SessionEntry[] = [];
  let sliceStart = performance.now();
  let reported = sliceStart;
  for (let from = 1; from <= lastSeq; from += BATCH) {
    const chunks = await readChunkSpan(db, sessionId, from, Math.min(lastSeq, from + BATCH - 1));
    // Replaced meanwhile (re-import): the caller reloads on the new generation.
    if (chunks.some((c) => c.generation !== generation)) return undefined;
    const bytes = await Promise.all(chunks.map((c) => chunkBytes(c.data)));
    if (signal?.aborted) return undefined;
    for (let k = 0; k < chunks.length; k++) {
      const reader = createChunkReader(bytes[k]!);
      while (!reader.done()) {
        const before = entries.length;
        reader.read(entries, LINES_PER_CHECK);
        onEntries?.(entries, before);
        const now = performance.now();
        if (now - sliceStart > SLICE_MS) {
          if (now - reported > PROGRESS_MS) {
            onProgress?.((chunks[k]!.seq - 1) / lastSeq);
            reported = now;
          }
          await yieldToEventLoop();
          if (signal?.aborted) return undefined;
          sliceStart = performance.now();
        }
      }
    }
  }
  return { ...base, entries };
}

/** Adds the chunks written after `loaded` (same generation). Returns `loaded` when nothing is new. */
export async function loadNewEntries(db: CutpointDb, loaded: LoadedSession): Promise<LoadedSession> {
  const chunks = await readChunkSpan(db, loaded.id, loaded.lastSeq + 1, Number.MAX_SAFE_INTEGER);
  return withChunks(loaded, chunks);
}

async function withChunks(loaded: LoadedSession, chunks: readonly ChunkRow[]): Promise<LoadedSession> {
  const fresh = chunks.filter((c) => c.generation === loaded.generation);
  if (fresh.length === 0) return loaded;
  const bytes = await Promise.all(fresh.map((c) => chunkBytes(c.data)));
  const added = bytes.flatMap(parseChunkBytes);
  return { ...loaded, entries: loaded.entries.concat(added), lastSeq: fresh.at(-1)!.seq };
}

/**
 * The session's row and every entry up to its leaf, read as one snapshot: the leaf is always among
 * the entries (a leaf read apart from its entries may be one that is not loaded yet). `replaced`
 * when the entries were replaced as a whole since `loaded` (load the session again).
 */
export async function catchUp(
  db: CutpointDb,
  loaded: LoadedSession,
): Promise<
  { ok: true; loaded: LoadedSession; row: SessionRow } | { ok: false; reason: "not-found" | "replaced" }
> {
  const got = await readSessionSince(db, loaded.id, loaded.lastSeq);
  if (!got) return { ok: false, reason: "not-found" };
  if (got.row.generation !== loaded.generation) return { ok: false, reason: "replaced" };
  return { ok: true, loaded: await withChunks(loaded, got.chunks), row: got.row };
}
