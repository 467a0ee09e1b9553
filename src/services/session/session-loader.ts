/**
 * Reading a stored session into memory for the session view (and the agent/compaction UIs).
 *
 * - First the last chunks (the newest entries, where the leaf is): `onPreview` gets them so the
 *   timeline can show its end while the rest loads. A preview is NOT the whole session: never
 *   plan or build a context from it.
 * - Then every entry: just after an import, the entries the import parsed and hands over, and
 *   for a session open earlier in this page, the entries its view kept, while they are what is
 *   stored (services/session/session-handover.ts: nothing is read back; chunks appended since are read
 *   next, as new entries); otherwise every chunk but the preview's
 *   (their entries are the preview's), in spans of a few MB (services/session/read-parts.ts). Each
 *   entry's token count is made as it is parsed, or taken from the counts stored for its chunk
 *   (core/compaction/stored-estimates.ts). Parsed in slices of ~12 ms with yields to the event
 *   loop, so a 100 MB session never blocks the page for long. `onEntries` sees the entries as
 *   they are parsed, inside the same slices. (What was measured and not kept, a worker among
 *   them: docs/decisions.md, "Opening a stored session".)
 * - On a reopen whose chunks all have an outline stored beside their counts (every entry, its
 *   messages without their text: core/session/outline.ts), `onOutline` gets the whole session
 *   from the outlines first (services/session/outline-load.ts: parsed in one go, ~1/6 of the bytes),
 *   while the messages' bodies are read and filled in, in slices, to become `LoadedSession`.
 *   Until then it is, like the preview, not for planning: only the views read it. Chunks
 *   without an outline (never opened since an import or an upgrade) are read whole.
 * - Later, only the chunks appended since (entries are append-only): `loadNewEntries`, or
 *   `catchUp` for the row and the entries as one snapshot (the agent plans on it).
 *
 * Every read goes through src/db (session-reads.ts); this file and session-read.ts only parse.
 */
import { estimateEntries } from "../../core/compaction/entry-messages.ts";
import { seedEstimates } from "../../core/compaction/stored-estimates.ts";
import { PREVIEW_ENTRIES } from "../../core/session/tail-preview.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import {
  type ChunkDerived,
  type ChunkRow,
  type CutpointDb,
  chunkBytes,
  getSession,
  parseChunkBytes,
  parseLinesFrom,
  readChunk,
  readChunkSpan,
  readChunkTokens,
  readSessionSince,
  type SessionRow,
} from "../../db/index.ts";
import { yieldToEventLoop } from "../common/yield.ts";
import type { LoadedSession, LoadOptions } from "./loaded-session.ts";
import { loadByOutline } from "./outline-load.ts";
import { type ReadSpec, readSessionParts } from "./read-parts.ts";
import type { ReadPart } from "./read-parts-protocol.ts";

const SLICE_MS = 12;
/** Progress reports at most this often (each one re-renders the session view). */
const PROGRESS_MS = 100;

/** Lines parsed between two looks at the clock. */
const LINES_PER_CHECK = 64;

/** Loads a whole session; undefined when it does not exist (or the load was aborted). */
export async function loadSession(
  db: CutpointDb,
  sessionId: string,
  options: LoadOptions = {},
): Promise<LoadedSession | undefined> {
  const { onPreview, signal, handover } = options;
  const row = await getSession(db, sessionId);
  if (!row || row.deletedAt || signal?.aborted) return undefined;
  const { generation, header } = row;
  // Just imported, or open earlier in this page: the entries in memory (nothing read back; the
  // chunks appended after them are read next, as new entries: `loadNewEntries`); else the
  // stored chunks.
  const inMemory = handover?.take(row);
  const handed = inMemory?.entries;
  const lastSeq = inMemory?.lastSeq ?? row.lastSeq;
  const base = { id: sessionId, header, generation, lastSeq };
  const t0 = performance.now();
  const spent = { waited: 0, decode: 0, parse: 0, estimates: 0, seeded: 0 };
  const tail =
    !onPreview || lastSeq <= 1
      ? undefined
      : handed && handover
        ? newestOf(base, handover.newestEntries(handed))
        : await readPreview(db, base);
  if (signal?.aborted) return undefined;
  // The token counts stored for the chunks, read while the preview is painted (asked for before
  // the preview's chunks, they made the first rows ~30 ms later).
  const stored = handed ? undefined : readChunkTokens(db, sessionId, generation);
  if (tail) await onPreview?.(tail.preview);
  if (signal?.aborted) return undefined;
  phase("preview", t0, performance.now() - t0);
  // Just imported: the import's own array, taken as it is (nothing else holds it by then).
  const entries: SessionEntry[] = handed ?? [];
  const derived = await stored;
  // Stored with outlines: the whole session from them at once, then the bodies.
  if (tail?.fromSeq !== undefined && derived && options.onOutline) {
    const got = await loadByOutline(
      db,
      base,
      { entries: tail.preview.entries, fromSeq: tail.fromSeq },
      derived,
      options,
    );
    if (got !== "read whole") {
      const unstored = unstoredOf(derived, 0, lastSeq);
      noteStored(base, got !== undefined, unstored, got?.seeded ?? 0, options);
      return got?.session;
    }
  }
  const counts = derived && new Map([...derived].map(([seq, d]) => [seq, d.tokens]));
  const t1 = performance.now();
  const done = await takeParts(
    handed
      ? [{ kind: "entries", entries: handed, seq: lastSeq }]
      : storedParts(db, { sessionId, generation, from: 1, to: lastSeq }, tail, spent),
    entryTaker(entries, lastSeq, options, spent, counts),
    signal,
  );
  phase("read wait", t1, spent.waited);
  phase("read decode", t1, spent.decode);
  phase("read parse", t1, spent.parse);
  // The chunks whose counts (or outlines) are to be stored: none read for entries taken from
  // memory, so those known to be stored already (an earlier open in this page) are not counted
  // as missing; a chunk whose stored counts did not match was dropped from `counts`.
  const storedThrough = inMemory && handover ? handover.countsStoredThrough(sessionId, generation) : 0;
  const unstored = unstoredOf(derived, storedThrough, lastSeq, counts);
  noteStored(base, done, unstored, spent.seeded, options);
  phase("read estimates", t1, spent.estimates, {
    seeded: spent.seeded,
    entries: entries.length,
    unstored,
    // Taken from memory (an import's, or kept from an earlier open in this page): nothing read.
    fromMemory: handed?.length ?? 0,
  });
  return done && !signal?.aborted ? { ...base, entries } : undefined;
}

/** After a load: what it says of the stored counts (`stats`), and that they are all stored when they are. */
function noteStored(
  { id, generation, lastSeq }: Omit<LoadedSession, "entries">,
  done: boolean,
  unstored: number,
  seeded: number,
  { stats, handover }: LoadOptions,
): void {
  if (done && unstored === 0) handover?.noteCountsStored(id, generation, lastSeq);
  if (stats) Object.assign(stats, { seeded, unstored });
}

/** Chunks after `from` up to `to` without stored counts (used: in `counts`) or without an outline. */
function unstoredOf(
  derived: Map<number, ChunkDerived> | undefined,
  from: number,
  to: number,
  counts?: Map<number, Uint32Array>,
): number {
  let n = 0;
  for (let seq = from + 1; seq <= to; seq++) {
    const d = derived?.get(seq);
    if (!d || d.outline === undefined || (counts && !counts.has(seq))) n++;
  }
  return n;
}

/** The newest entries, shown first, and the first chunk they come from (undefined: not stored chunks). */
interface Tail {
  preview: LoadedSession;
  fromSeq?: number;
}

/** The newest of the handed-over entries (PREVIEW_ENTRIES, see SessionHandover.newestEntries), unless that is all of them. */
function newestOf(
  base: Omit<LoadedSession, "entries">,
  newest: SessionEntry[] | undefined,
): Tail | undefined {
  return newest && { preview: { ...base, entries: newest } };
}

/**
 * The stored chunks' parts, in order. The preview's chunks are not read or parsed again: their
 * entries, parsed for the preview, come last as they are.
 */
async function* storedParts(
  db: CutpointDb,
  spec: ReadSpec,
  tail: Tail | undefined,
  spent: { waited: number; decode: number },
): AsyncGenerator<ReadPart> {
  const fromSeq = tail?.fromSeq;
  if (fromSeq === undefined) {
    yield* readSessionParts(db, spec, spent);
    return;
  }
  for await (const part of readSessionParts(db, { ...spec, to: fromSeq - 1 }, spent)) {
    yield part;
    if (part.kind === "replaced") return;
  }
  yield { kind: "entries", entries: tail!.preview.entries, seq: spec.to };
}

/** Time spent in one part of the load, as a User Timing measure "cutpoint:load <part>" (the storage bench reports them). */
function phase(part: string, start: number, ms: number, detail?: object): void {
  performance.measure(`cutpoint:load ${part}`, { start, duration: ms, detail });
}

/** The newest chunks' entries (at least PREVIEW_ENTRIES), unless that is the whole session. */
async function readPreview(db: CutpointDb, base: Omit<LoadedSession, "entries">): Promise<Tail | undefined> {
  const tail: ChunkRow[] = [];
  let count = 0;
  for (let seq = base.lastSeq; seq >= 1 && count < PREVIEW_ENTRIES; seq--) {
    const chunk = await readChunk(db, base.id, seq);
    if (!chunk) break;
    tail.unshift(chunk);
    count += chunk.count;
  }
  if (tail.length >= base.lastSeq || tail.some((c) => c.generation !== base.generation)) return undefined;
  const bytes = await Promise.all(tail.map((c) => chunkBytes(c.data)));
  return { preview: { ...base, entries: bytes.flatMap(parseChunkBytes) }, fromSeq: tail[0]!.seq };
}

/** Takes every part; false when the read ended early (aborted, or replaced by a re-import). */
async function takeParts(
  parts: AsyncIterable<ReadPart> | Iterable<ReadPart>,
  take: (part: SessionEntry[] | string, seq: number) => Promise<boolean>,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  for await (const part of parts) {
    if (signal?.aborted) return false;
    // Replaced meanwhile (re-import): the caller reloads on the new generation.
    if (part.kind === "replaced") return false;
    if (!(await take(part.kind === "text" ? part.text : part.entries, part.seq))) return false;
  }
  return true;
}

/**
 * Adds a part's entries to `entries` (parsing its JSONL text, or as they are) a few lines at a
 * time (`onEntries` sees each few), yielding to the event loop every SLICE_MS and reporting
 * progress; false: aborted.
 */
function entryTaker(
  entries: SessionEntry[],
  lastSeq: number,
  { onEntries, onProgress, signal }: LoadOptions,
  /**
   * Adds the time spent parsing (or taking in) entries and counting their tokens (ms), and the
   * entries whose stored counts were used (`seeded`).
   */
  spent: { parse: number; estimates: number; seeded: number },
  /** Stored token counts by chunk seq (a chunk whose counts do not match is dropped from it). */
  stored: Map<number, Uint32Array> | undefined,
): (part: SessionEntry[] | string, seq: number) => Promise<boolean> {
  let sliceStart = performance.now();
  let reported = sliceStart;
  // Where the current chunk's entries begin (a chunk's text comes in several parts).
  let chunkSeq = -1;
  let chunkStart = 0;
  return async (part, seq) => {
    if (seq !== chunkSeq) {
      chunkSeq = seq;
      chunkStart = entries.length;
    }
    // The import's handed array is the loaded one: its entries are in place already.
    const inPlace = part === entries;
    for (let pos = 0; pos < part.length; ) {
      const before = inPlace ? pos : entries.length;
      const t0 = performance.now();
      if (inPlace) pos = Math.min(part.length, pos + LINES_PER_CHECK);
      else if (typeof part === "string") pos = parseLinesFrom(part, pos, entries, LINES_PER_CHECK);
      else
        for (const end = Math.min(part.length, pos + LINES_PER_CHECK); pos < end; pos++)
          entries.push(part[pos]!);
      const after = inPlace ? pos : entries.length;
      const t1 = performance.now();
      // Each entry's token count (the timeline and the planner read them next): stored (for a
      // chunk's own text: its counts are by position), or made now.
      const tokens = typeof part === "string" ? stored?.get(seq) : undefined;
      if (tokens && seedEstimates(entries, before, after, tokens, before - chunkStart))
        spent.seeded += after - before;
      else {
        if (tokens) stored!.delete(seq);
        estimateEntries(entries, before, after);
      }
      spent.parse += t1 - t0;
      spent.estimates += performance.now() - t1;
      onEntries?.(entries, before, after);
      const now = performance.now();
      if (now - sliceStart > SLICE_MS) {
        if (now - reported > PROGRESS_MS) {
          // Text: by chunk; the import's handed entries: by entry (they are all one part).
          onProgress?.(typeof part === "string" ? (seq - 1) / lastSeq : pos / part.length);
          reported = now;
        }
        await yieldToEventLoop();
        if (signal?.aborted) return false;
        sliceStart = performance.now();
      }
    }
    return true;
  };
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
