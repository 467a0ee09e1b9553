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
 * A chunk's UTF-8 bytes, encoded a few dozen lines per step (a 512 KB piece at once held the page
 * for 40 to 150 ms on a loaded machine).
 */
export function* encodeChunkBytesSteps(
  head: Omit<ChunkHead, "cutpointSync" | "count">,
  lines: readonly string[],
): Steps<Uint8Array> {
  const first = JSON.stringify({ cutpointSync: 1, ...head, count: lines.length } satisfies ChunkHead);
  let chars = first.length + 1;
  for (const line of lines) chars += line.length + 1;
  // A UTF-16 code unit is at most 3 bytes of UTF-8.
  const out = new Uint8Array(chars * 3);
  const encoder = new TextEncoder();
  let at = encoder.encodeInto(`${first}\n`, out).written;
  for (let i = 0; i < lines.length; i++) {
    at += encoder.encodeInto(lines[i]!, out.subarray(at)).written;
    out[at++] = 10;
    if ((i + 1) % LINES_PER_STEP === 0) yield;
  }
  return out.subarray(0, at);
}

const LINES_PER_STEP = 64;

/** `decodeChunkSteps` all at once. */
export function decodeChunk(text: string, expected: Omit<ChunkHead, "cutpointSync" | "count">): ChunkRead {
  return runSteps(decodeChunkSteps([text], expected));
}
