/**
 * Entry storage layout: a session's entries live in `chunks` rows, each holding a Blob of the
 * v3 JSONL of N consecutive entries (one JSON object per line, each ending in "\n"); ~2 MB per
 * chunk at import (slices of the imported File itself: a v3 file's lines are stored as their
 * own bytes, see `sourceChunkSteps`), ~512 KB when built from entries (fork, tests), and one
 * small chunk per `appendEntries` call afterwards (never rewritten, so a reader that has
 * loaded up to seq N only needs seq > N).
 *
 * Why (e2e/bench/storage.bench.ts, 100 MB / 91,634 entries, headless Chromium 156; measured
 * while several engineers shared the 2-core machine, load average 16-19, so absolute times
 * are inflated ~8-10x; compare the rows with each other):
 *
 *   layout (raw IndexedDB, one tx)   rows    write      read (getAll + JSON.parse)
 *   one row per entry (object)      91634   30-42 s     38-59 s
 *   JSONL text chunks of 64 KB       1581   52-54 s     30-46 s
 *   JSONL text chunks of 512 KB       200   41-47 s     21 s
 *   JSONL text chunks of 4 MB          25   24-28 s     14-18 s
 *   JSONL Blobs of ~1 MB               92   0.45 s      4.2 s (blob.text + parse)
 *
 * (three runs; the Blob row is from the third, same load.) In the app under the same load:
 * export of the Blob layout 1.1 s (was 43 s with string rows), reopen to first rows 1.1 s.
 *
 * Per-row overhead dominates with one row per entry (architecture.md: ~10k rows/s written on
 * an idle machine, ~9 s for this session); text chunks cut reads 2-3x. 512 KB keeps the preview of
 * the newest entries and append-side rows small; 4 MB reads a bit faster but makes the first
 * rows wait for a bigger tail. Chunks are Blobs rather than strings: export is a Blob of the
 * header line and the stored Blobs (nothing is read or re-serialized, the bytes are exactly
 * what the serializer wrote), and reads are asynchronous `blob.text()` instead of a large
 * synchronous structured-clone deserialization on the main thread. The exception is a small
 * chunk (an append: a leaf move, a turn), stored as a string (`STRING_CHUNK_MAX_CHARS`). Where the
 * engine refuses Blobs in IndexedDB (WebKit's private windows), big chunks are kept as their UTF-8
 * bytes instead (chunk-form.ts); every reader and the export take all three forms.
 */
import { lineRuns } from "../core/session/export.ts";
import { withCurrentVersion } from "../core/session/migrate.ts";
import { runSteps, type Steps } from "../core/session/steps.ts";
import type { SessionEntry, SessionHeader } from "../core/session/types.ts";
import type { ChunkForm } from "./chunk-form.ts";
import type { StoredChunkData } from "./schema.ts";

/** Target size of one chunk's text (UTF-16 code units, close to bytes for JSONL). */
export const CHUNK_TARGET_CHARS = 512 * 1024;
/**
 * Target size of an imported file's chunk. Bigger than CHUNK_TARGET_CHARS because each chunk is
 * a `File.slice`, which costs ~1.5 ms in a Chromium worker whatever its size (200 slices of
 * 512 KB took 300 ms for 100 MB; e2e/bench/storage.bench.ts).
 */
export const SOURCE_CHUNK_TARGET_BYTES = 2 * 1024 * 1024;
/** Upper bound of entries per chunk, so that many tiny entries still make few rows. */
export const CHUNK_MAX_ENTRIES = 4096;

export interface ChunkData {
  /** v3 JSONL of the entries, each line terminated by "\n". */
  text: string;
  /** Number of entries (lines) in `text`. */
  count: number;
  /** UTF-8 byte length of `text`. */
  bytes: number;
}

/** A chunk whose JSONL is already a Blob (parts of the imported file, see `sourceChunkSteps`). */
export interface BlobChunk {
  data: Blob;
  count: number;
  /** = data.size */
  bytes: number;
}

export type ChunkSource = ChunkData | BlobChunk;

export const JSONL_TYPE = "application/x-ndjson";

/**
 * Chunks up to this size are stored as a string rather than a Blob: an append (a leaf move, a
 * turn) is one small chunk, and a Blob made on the main thread costs ~0.5 ms to create and ~2 ms
 * more in its IndexedDB transaction (1.2-1.6 ms for a small string, 3.2-3.7 ms as a Blob, headless
 * Chromium 156 on this machine), a large share of a 50 ms leaf move. Big chunks stay Blobs (see
 * the layout table above: reading many large strings back is slow and synchronous).
 */
export const STRING_CHUNK_MAX_CHARS = 64 * 1024;

/**
 * What is stored for a chunk of text: its JSONL as a string when small, else a Blob, or its UTF-8
 * bytes where this database keeps no Blobs (chunk-form.ts).
 */
export function chunkData(chunk: ChunkData, form: ChunkForm): StoredChunkData {
  if (chunk.text.length <= STRING_CHUNK_MAX_CHARS) return chunk.text;
  return form === "blob"
    ? new Blob([chunk.text], { type: JSONL_TYPE })
    : new TextEncoder().encode(chunk.text);
}

/** What is stored for any chunk: a Blob chunk (the imported file's bytes) as is or read into bytes. */
export async function storedChunkData(chunk: ChunkSource, form: ChunkForm): Promise<StoredChunkData> {
  if (!("data" in chunk)) return chunkData(chunk, form);
  return form === "blob" ? chunk.data : new Uint8Array(await chunk.data.arrayBuffer());
}

/**
 * Chunks of an imported file made of the file's own bytes: each chunk is a Blob of slices of
 * `source` (the File: nothing is copied or re-encoded in JS, IndexedDB reads the bytes) for the
 * entries whose line is kept verbatim (`spans`, from `parseSessionBytes`), and of
 * `JSON.stringify` text for the others (a CRLF line; a line that was not valid UTF-8, so that it
 * is stored and exported as valid UTF-8, U+FFFD in place of its bad bytes). Without spans (a migrated file) every
 * line is serialized, as `buildChunks` does. Same grouping as `buildChunks`, by bytes. One step
 * per chunk (see core/session/steps.ts: the import gives the page a turn between them).
 */
export function* sourceChunkSteps(
  count: number,
  spans: Float64Array | undefined,
  source: Blob,
  /** The JSONL line (without "\n") of entry i, for entries without a span. */
  lineOf: (i: number) => string,
  targetBytes = SOURCE_CHUNK_TARGET_BYTES,
  maxEntries = CHUNK_MAX_ENTRIES,
): Steps<BlobChunk[]> {
  const chunks: BlobChunk[] = [];
  let from = 0;
  let size = 0;
  const flush = (to: number) => {
    if (to === from) return;
    const parts: (Blob | string)[] = [];
    for (const run of lineRuns(spans, from, to, source.size)) {
      if (run.kind === "json") {
        const lines: string[] = [];
        for (let i = run.from; i < run.to; i++) lines.push(lineOf(i));
        parts.push(`${lines.join("\n")}\n`);
      } else {
        parts.push(source.slice(run.start, run.end));
        if (!run.newline) parts.push("\n");
      }
    }
    const data = new Blob(parts, { type: JSONL_TYPE });
    chunks.push({ data, count: to - from, bytes: data.size });
    from = to;
    size = 0;
  };
  for (let i = 0; i < count; i++) {
    const start = spans ? spans[2 * i]! : -1;
    size += start >= 0 ? spans![2 * i + 1]! - start + 1 : lineOf(i).length + 1;
    if (size >= targetBytes || i + 1 - from >= maxEntries) {
      flush(i + 1);
      yield;
    }
  }
  flush(count);
  return chunks;
}

/** One entry as one JSONL line (without the newline). */
export function serializeEntryLine(entry: SessionEntry): string {
  return JSON.stringify(entry);
}

/** The header as its JSONL line (without the newline). Export always writes version 3. */
export function serializeHeaderLine(header: SessionHeader): string {
  return JSON.stringify(withCurrentVersion(header));
}

/** UTF-8 byte length of a JS string without allocating an encoded copy. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Groups entries into chunks of about `targetChars` characters (never splitting an entry). */
export function buildChunks(
  entries: readonly SessionEntry[],
  targetChars = CHUNK_TARGET_CHARS,
  maxEntries = CHUNK_MAX_ENTRIES,
): ChunkData[] {
  const make = (text: string, count: number): ChunkData => ({ text, count, bytes: utf8Length(text) });
  return runSteps(
    chunkSteps(entries.length, (i) => serializeEntryLine(entries[i]!), make, targetChars, maxEntries),
  );
}

/**
 * Groups `count` JSONL lines (`lineOf(i)`, without "\n") into chunks of about `targetChars`
 * characters, never splitting a line, each made by `make` from its text; one step per chunk
 * (core/session/steps.ts), so that a caller can give the page a turn between them.
 */
export function* chunkSteps<C>(
  count: number,
  lineOf: (i: number) => string,
  make: (text: string, count: number) => C,
  targetChars = CHUNK_TARGET_CHARS,
  maxEntries = CHUNK_MAX_ENTRIES,
): Steps<C[]> {
  const chunks: C[] = [];
  let lines: string[] = [];
  let chars = 0;
  const flush = () => {
    if (lines.length === 0) return;
    chunks.push(make(`${lines.join("\n")}\n`, lines.length));
    lines = [];
    chars = 0;
  };
  for (let i = 0; i < count; i++) {
    const line = lineOf(i);
    lines.push(line);
    chars += line.length + 1;
    if (chars >= targetChars || lines.length >= maxEntries) {
      flush();
      yield;
    }
  }
  flush();
  return chunks;
}

/** A chunk of text as a Blob chunk (stored as is: made ahead, in slices, rather than at the save). */
export function blobChunk(text: string, count: number): BlobChunk {
  const data = new Blob([text], { type: JSONL_TYPE });
  return { data, count, bytes: data.size };
}

/** JSONL bytes (whole lines, each ending in "\n") as a Blob chunk: copied as they are, nothing encoded. */
export function bytesChunk(bytes: Uint8Array, count: number): BlobChunk {
  const data = new Blob([bytes as Uint8Array<ArrayBuffer>], { type: JSONL_TYPE });
  return { data, count, bytes: data.size };
}

/**
 * Small Blob chunks joined into chunks of about `targetBytes` (a Blob of Blobs copies nothing:
 * the small ones are made a step at a time, the UTF-8 encoding of 512 KB at once held the page
 * for 90 to 140 ms on a loaded machine).
 */
export function joinBlobChunks(
  parts: readonly BlobChunk[],
  targetBytes = CHUNK_TARGET_CHARS,
  maxEntries = CHUNK_MAX_ENTRIES,
): BlobChunk[] {
  const joiner = createChunkJoiner(targetBytes, maxEntries);
  for (const part of parts) joiner.add(part);
  return joiner.end();
}

/**
 * `joinBlobChunks` as the parts come (a session fetched chunk by chunk: joining 200 groups at
 * the end held the page for 100 to 130 ms). A group of one part is that part, not wrapped again.
 */
export function createChunkJoiner(targetBytes = CHUNK_TARGET_CHARS, maxEntries = CHUNK_MAX_ENTRIES) {
  const out: BlobChunk[] = [];
  let group: BlobChunk[] = [];
  let bytes = 0;
  let count = 0;
  const flush = () => {
    if (group.length === 1) out.push(group[0]!);
    else if (group.length > 1) {
      const data = new Blob(
        group.map((g) => g.data),
        { type: JSONL_TYPE },
      );
      out.push({ data, count, bytes: data.size });
    }
    group = [];
    bytes = 0;
    count = 0;
  };
  return {
    add(part: BlobChunk): void {
      if (group.length > 0 && (bytes + part.bytes > targetBytes || count + part.count > maxEntries)) flush();
      group.push(part);
      bytes += part.bytes;
      count += part.count;
    },
    /** The joined chunks, the last group included. */
    end(): BlobChunk[] {
      flush();
      return out;
    },
  };
}

const utf8 = new TextDecoder("utf-8");

/**
 * Bytes decoded at a time (cut at a line end). Small pieces are mostly ASCII, so their strings
 * (and the lines cut from them) are one-byte strings: 16 KB against 256 KB pieces, a 100 MB
 * reopen read every message's text 0.85x sooner (e2e/bench/storage.bench.ts, 3 alternating rounds).
 */
const DECODE_PIECE_BYTES = 16 * 1024;

/**
 * The text of one chunk's bytes (UTF-8 JSONL), decoded a piece of whole lines (~16 KB) at a
 * time: one native TextDecoder call per piece (stored chunks are valid UTF-8, see
 * `sourceChunkSteps`). Decoding each line on its own cost more than the parsing on a 100 MB
 * session; reading each chunk with `blob.text()` instead made the reopen 1.18x slower
 * (e2e/bench/storage.bench.ts).
 */
export function* decodedPieces(bytes: Uint8Array, pieceBytes = DECODE_PIECE_BYTES): Generator<string> {
  for (let at = 0; at < bytes.length; ) {
    let end = bytes.indexOf(10, Math.min(bytes.length - 1, at + pieceBytes));
    end = end === -1 ? bytes.length : end + 1;
    yield utf8.decode(bytes.subarray(at, end));
    at = end;
  }
}

/**
 * Parses up to `maxLines` JSONL lines of `text` from `pos` into `into` (empty lines skipped);
 * returns the position after them (`text.length` at the end).
 */
export function parseLinesFrom(
  text: string,
  pos: number,
  into: SessionEntry[],
  maxLines = Number.POSITIVE_INFINITY,
): number {
  for (let n = 0; n < maxLines && pos < text.length; ) {
    let end = text.indexOf("\n", pos);
    if (end === -1) end = text.length;
    if (end > pos) {
      into.push(JSON.parse(text.slice(pos, end)) as SessionEntry);
      n++;
    }
    pos = end + 1;
  }
  return Math.min(pos, text.length);
}

/** Parses one chunk's bytes (UTF-8 JSONL) back into entries, a decoded piece at a time. */
export function parseChunkBytes(bytes: Uint8Array): SessionEntry[] {
  const out: SessionEntry[] = [];
  for (const piece of decodedPieces(bytes)) parseLinesFrom(piece, 0, out);
  return out;
}

/** The bytes of a stored chunk, whatever its form. */
export async function chunkBytes(data: StoredChunkData): Promise<Uint8Array> {
  if (typeof data === "string") return new TextEncoder().encode(data);
  if (data instanceof Uint8Array) return data;
  return new Uint8Array(await data.arrayBuffer());
}

/** The JSONL text of a stored chunk, whatever its form. */
export async function storedChunkText(data: StoredChunkData): Promise<string> {
  if (typeof data === "string") return data;
  if (data instanceof Uint8Array) return utf8.decode(data);
  return data.text();
}

/** Parses one chunk's text back into entries (the text was written by `buildChunks`). */
export function parseChunkText(text: string): SessionEntry[] {
  const out: SessionEntry[] = [];
  parseLinesFrom(text, 0, out);
  return out;
}

/**
 * pi's file name for a session: `<timestamp>_<id>.jsonl`, the header timestamp with ':' and
 * '.' replaced by '-'.
 */
export function sessionFileName(header: Pick<SessionHeader, "id" | "timestamp">): string {
  return `${fileStamp(String(header.timestamp))}_${header.id}.jsonl`;
}

/** An ISO time as pi writes it in a file name: ':' and '.' replaced by '-'. */
const fileStamp = (iso: string): string => iso.replace(/[:.]/g, "-");

/**
 * The file name of an export: pi's name of the session with the export's time before ".jsonl"
 * (`<timestamp>_<id>_<exported at>.jsonl`), so that two exports of a session (an earlier and a
 * later version) never get the same name and one download never silently replaces another.
 */
export function exportFileName(header: Pick<SessionHeader, "id" | "timestamp">, exportedAt: Date): string {
  return `${fileStamp(String(header.timestamp))}_${header.id}_${fileStamp(exportedAt.toISOString())}.jsonl`;
}
