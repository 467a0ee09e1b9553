/**
 * The text of one sync chunk (pure): a first line that names the chunk (session, device, seq,
 * how many entries follow) and then the entries as v3 JSONL. A reader takes a chunk only when
 * its first line names the object it was read from and exactly `count` entries follow, so a
 * half-written object (a WebDAV server without atomic PUT) or one copied to another name is
 * refused and read again later, never merged in part.
 */
import { runSteps, type Steps } from "../session/steps.ts";
import type { SessionEntry } from "../session/types.ts";
import { type ParsedLines, parseLinesSteps } from "./jsonl-lines.ts";

export interface ChunkHead {
  cutpointSync: 1;
  session: string;
  device: string;
  seq: number;
  count: number;
}

export type ChunkRead = ({ ok: true } & ParsedLines) | { ok: false; reason: string };

/** A chunk of `lines` (each an entry's JSON, as `JSON.stringify` or a stored JSONL line has it). */
export function encodeChunkLines(
  head: Omit<ChunkHead, "cutpointSync" | "count">,
  lines: readonly string[],
): string {
  const first: ChunkHead = { cutpointSync: 1, ...head, count: lines.length };
  return `${JSON.stringify(first)}\n${lines.length > 0 ? `${lines.join("\n")}\n` : ""}`;
}

export function encodeChunk(
  head: Omit<ChunkHead, "cutpointSync" | "count">,
  entries: readonly SessionEntry[],
): string {
  return encodeChunkLines(
    head,
    entries.map((e) => JSON.stringify(e)),
  );
}

const isEntry = (v: unknown): v is SessionEntry =>
  !!v && typeof v === "object" && typeof (v as { id?: unknown }).id === "string" && "parentId" in v;

/**
 * The entries (and their lines) of a chunk read from the object named by `expected`, or why it is
 * refused. `pieces`: the object's text in pieces of whole lines (decoded as they are asked for),
 * parsed a few hundred lines per step.
 */
export function* decodeChunkSteps(
  pieces: Iterable<string>,
  expected: Omit<ChunkHead, "cutpointSync" | "count">,
): Steps<ChunkRead> {
  let head: Partial<ChunkHead> | undefined;
  const parsed: ParsedLines = { entries: [], lines: [] };
  let last = "";
  try {
    for (const piece of pieces) {
      if (piece === "") continue;
      last = piece;
      let from = 0;
      if (!head) {
        const firstEnd = piece.indexOf("\n");
        if (firstEnd === -1) return { ok: false, reason: "incomplete (no final line end)" };
        head = JSON.parse(piece.slice(0, firstEnd)) as Partial<ChunkHead>;
        if (head.cutpointSync !== 1) return { ok: false, reason: "not a Cutpoint sync chunk" };
        if (head.session !== expected.session || head.device !== expected.device || head.seq !== expected.seq)
          return { ok: false, reason: "its first line names another chunk" };
        from = firstEnd + 1;
      }
      if (!piece.endsWith("\n")) break;
      yield* parseLinesSteps(piece, parsed, from);
    }
  } catch {
    return { ok: false, reason: "not valid JSON lines (incomplete or damaged)" };
  }
  if (!head || !last.endsWith("\n")) return { ok: false, reason: "incomplete (no final line end)" };
  if (head.count !== parsed.entries.length)
    return { ok: false, reason: `holds ${parsed.entries.length} of ${head.count} entries (incomplete)` };
  if (!parsed.entries.every(isEntry)) return { ok: false, reason: "a line is not a session entry" };
  return { ok: true, ...parsed };
}

/**
 * A chunk's UTF-8 bytes made of `lines`, each an entry's JSON as UTF-8 bytes (stored lines as
 * they are read, no "\n"): the same bytes as `encodeChunkLines` of their text, copied, not encoded.
 */
export function sealChunkLines(
  head: Omit<ChunkHead, "cutpointSync" | "count">,
  lines: readonly Uint8Array[],
): Uint8Array {
  const first = new TextEncoder().encode(
    `${JSON.stringify({ cutpointSync: 1, ...head, count: lines.length } satisfies ChunkHead)}\n`,
  );
  let size = first.length;
  for (const line of lines) size += line.length + 1;
  const out = new Uint8Array(size);
  out.set(first, 0);
  let at = first.length;
  for (const line of lines) {
    out.set(line, at);
    at += line.length;
    out[at++] = 10;
  }
  return out;
}

/** The non-empty lines of JSONL bytes, each as [start, end) without its "\n" (a last line without one too). */
export function* lineRanges(bytes: Uint8Array): Generator<[number, number]> {
  for (let at = 0; at < bytes.length; ) {
    let end = bytes.indexOf(10, at);
    if (end === -1) end = bytes.length;
    if (end > at) yield [at, end];
    at = end + 1;
  }
}

/**
 * The bytes of a chunk after its first line, when they are exactly `count` non-empty lines each
 * ending in "\n" (what `encodeChunkLines` writes): stored as they are. Undefined otherwise.
 */
export function chunkBody(bytes: Uint8Array, count: number): Uint8Array | undefined {
  const start = bytes.indexOf(10) + 1;
  if (start === 0 || bytes[bytes.length - 1] !== 10) return undefined;
  let lines = 0;
  for (let at = start; at < bytes.length; ) {
    const end = bytes.indexOf(10, at);
    if (end === at) return undefined;
    lines++;
    at = end + 1;
  }
  return lines === count ? bytes.subarray(start) : undefined;
}

/** `decodeChunkSteps` all at once. */
export function decodeChunk(text: string, expected: Omit<ChunkHead, "cutpointSync" | "count">): ChunkRead {
  return runSteps(decodeChunkSteps([text], expected));
}
