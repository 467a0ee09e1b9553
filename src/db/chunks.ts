/**
 * Entry storage layout: a session's entries live in `chunks` rows, each holding the v3 JSONL
 * text of N consecutive entries (one JSON object per line, each line ending in "\n").
 *
 * Why chunks (measured in headless Chromium 156 on this machine, 100 MB / 91k entries, see
 * e2e/bench/storage.bench.ts and the numbers in ./README-storage.md):
 * - one IndexedDB row per entry is bound by per-row overhead (~10k rows/s written): ~9 s;
 * - rows of ~512 KB of JSONL text: a 100 MB import writes ~200 rows, bound by bytes, well under
 *   a second; reading them back is a few hundred ms and JSON.parse runs at ~500 MB/s;
 * - export is a plain concatenation of the header line and the chunk texts, so the bytes are
 *   exactly what the serializer wrote at import (or append) time.
 * Entries appended later by the agent arrive as small chunks (one per `appendEntries` call);
 * they are never rewritten, so a reader that has loaded up to seq N only needs seq > N.
 */
import { withCurrentVersion } from "../core/session/migrate.ts";
import type { SessionEntry, SessionHeader } from "../core/session/types.ts";

/** Target size of one chunk's text (UTF-16 code units, close to bytes for JSONL). */
export const CHUNK_TARGET_CHARS = 512 * 1024;
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
  const chunks: ChunkData[] = [];
  let lines: string[] = [];
  let chars = 0;
  const flush = () => {
    if (lines.length === 0) return;
    const text = `${lines.join("\n")}\n`;
    chunks.push({ text, count: lines.length, bytes: utf8Length(text) });
    lines = [];
    chars = 0;
  };
  for (const entry of entries) {
    const line = serializeEntryLine(entry);
    lines.push(line);
    chars += line.length + 1;
    if (chars >= targetChars || lines.length >= maxEntries) flush();
  }
  flush();
  return chunks;
}

/** Parses one chunk's text back into entries (the text was written by `buildChunks`). */
export function parseChunkText(text: string): SessionEntry[] {
  const out: SessionEntry[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    if (end > start) out.push(JSON.parse(text.slice(start, end)) as SessionEntry);
    start = end + 1;
  }
  return out;
}

/**
 * pi's file name for a session: `<timestamp>_<id>.jsonl`, the header timestamp with ':' and
 * '.' replaced by '-'.
 */
export function sessionFileName(header: Pick<SessionHeader, "id" | "timestamp">): string {
  const stamp = String(header.timestamp).replace(/[:.]/g, "-");
  return `${stamp}_${header.id}.jsonl`;
}
