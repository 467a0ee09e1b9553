/**
 * The text of one sync chunk (pure): a first line that names the chunk (session, device, seq,
 * how many entries follow) and then the entries as v3 JSONL. A reader takes a chunk only when
 * its first line names the object it was read from and exactly `count` entries follow, so a
 * half-written object (a WebDAV server without atomic PUT) or one copied to another name is
 * refused and read again later, never merged in part.
 */
import type { SessionEntry } from "../session/types.ts";

export interface ChunkHead {
  cutpointSync: 1;
  session: string;
  device: string;
  seq: number;
  count: number;
}

export type ChunkRead = { ok: true; entries: SessionEntry[] } | { ok: false; reason: string };

export function encodeChunk(
  head: Omit<ChunkHead, "cutpointSync" | "count">,
  entries: readonly SessionEntry[],
) {
  const first: ChunkHead = { cutpointSync: 1, ...head, count: entries.length };
  return `${[first, ...entries].map((o) => JSON.stringify(o)).join("\n")}\n`;
}

const isEntry = (v: unknown): v is SessionEntry =>
  !!v && typeof v === "object" && typeof (v as { id?: unknown }).id === "string" && "parentId" in v;

/** The entries of a chunk read from the object named by `expected`, or why it is refused. */
export function decodeChunk(text: string, expected: Omit<ChunkHead, "cutpointSync" | "count">): ChunkRead {
  if (!text.endsWith("\n")) return { ok: false, reason: "incomplete (no final line end)" };
  const lines = text.slice(0, -1).split("\n");
  let head: Partial<ChunkHead>;
  const values: unknown[] = [];
  try {
    head = JSON.parse(lines[0] ?? "") as Partial<ChunkHead>;
    for (const line of lines.slice(1)) values.push(JSON.parse(line));
  } catch {
    return { ok: false, reason: "not valid JSON lines (incomplete or damaged)" };
  }
  if (head.cutpointSync !== 1) return { ok: false, reason: "not a Cutpoint sync chunk" };
  if (head.session !== expected.session || head.device !== expected.device || head.seq !== expected.seq)
    return { ok: false, reason: "its first line names another chunk" };
  if (head.count !== values.length)
    return { ok: false, reason: `holds ${values.length} of ${head.count} entries (incomplete)` };
  if (!values.every(isEntry)) return { ok: false, reason: "a line is not a session entry" };
  return { ok: true, entries: values };
}
