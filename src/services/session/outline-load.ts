/**
 * Reopening a stored session from its chunks' outlines (core/session/outline.ts): every entry at
 * once, the messages without their bodies, so that the whole session is shown (tree, path,
 * timeline, token counts) before its JSONL is parsed; then the bodies, parsed chunk by chunk in
 * slices and given to the same entry objects. services/session/session-loader.ts calls it after the
 * preview. Until the bodies are all in, nothing plans, builds a context or exports from the
 * entries: the loader hands them over as an outline (`onOutline`), and the whole session only
 * when every body is in.
 *
 * An outline, or counts, that do not line up with the chunk (stale derived data) are never shown
 * as the session: the chunk is read whole instead, and a body that does not match its outline
 * ends this read ("read whole": the loader reads the session whole, as without outlines).
 */
import { estimateEntries } from "../../core/compaction/entry-messages.ts";
import { NO_MESSAGE, seedFilled, seedOutline } from "../../core/compaction/stored-estimates.ts";
import { fillBody, parseOutline } from "../../core/session/outline.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import {
  type ChunkDerived,
  type CutpointDb,
  chunkBytes,
  parseChunkBytes,
  parseLinesFrom,
  readChunk,
} from "../../db/index.ts";
import { yieldToEventLoop } from "../common/yield.ts";
import type { LoadedSession, LoadOptions } from "./loaded-session.ts";
import { readSessionParts } from "./read-parts.ts";

const SLICE_MS = 12;
const PROGRESS_MS = 100;
const LINES_PER_CHECK = 64;

/** Where an outlined chunk's entries are, and its counts. */
interface Outlined {
  start: number;
  tokens: Uint32Array;
  bodiless: number[];
}

/**
 * The session from its outlines and then its bodies, with how many entries took stored counts:
 * undefined when aborted or replaced; "read whole" when the outlines cannot be used (none for
 * most chunks, or a body that does not match). A chunk whose outline does not line up with its
 * counts is read whole and dropped from `derived`, so that it counts as not stored (the loader's
 * `unstored`) and is written again.
 */
export async function loadByOutline(
  db: CutpointDb,
  base: Omit<LoadedSession, "entries">,
  preview: { entries: SessionEntry[]; fromSeq: number },
  derived: Map<number, ChunkDerived>,
  { onOutline, onProgress, signal }: LoadOptions,
): Promise<{ session: LoadedSession; seeded: number } | undefined | "read whole"> {
  const before = preview.fromSeq - 1;
  // Worth it when most chunks before the preview have an outline (the others are read whole now).
  let have = 0;
  for (let seq = 1; seq <= before; seq++) if (derived.get(seq)?.outline !== undefined) have++;
  if (!onOutline || have === 0 || have < before / 2) return "read whole";
  const t0 = performance.now();
  const entries: SessionEntry[] = [];
  const awaiting = new Set<SessionEntry>();
  const outlined = new Map<number, Outlined>();
  let seeded = 0;
  let sliceStart = performance.now();
  for (let seq = 1; seq <= before; seq++) {
    const start = entries.length;
    const d = derived.get(seq);
    const parsed = d?.outline === undefined ? undefined : parseOutline(d.outline, d.tokens.length);
    if (parsed) {
      for (const entry of parsed.entries) entries.push(entry);
      const bodiless = new Set(parsed.bodiless);
      if (seedOutline(entries, start, d!.tokens, bodiless)) {
        for (const at of parsed.bodiless) awaiting.add(entries[start + at]!);
        outlined.set(seq, { start, tokens: d!.tokens, bodiless: parsed.bodiless });
        seeded += d!.tokens.length;
      } else entries.length = start;
    }
    if (d && !outlined.has(seq)) derived.delete(seq);
    if (!outlined.has(seq)) {
      // No outline that lines up: the chunk whole, now.
      const row = await readChunk(db, base.id, seq);
      if (!row || row.generation !== base.generation) return undefined;
      for (const entry of parseChunkBytes(await chunkBytes(row.data))) entries.push(entry);
      estimateEntries(entries, start, entries.length);
    }
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToEventLoop();
      if (signal?.aborted) return undefined;
      sliceStart = performance.now();
    }
  }
  for (const entry of preview.entries) entries.push(entry);
  estimateEntries(entries, entries.length - preview.entries.length, entries.length);
  performance.measure("cutpoint:load outline", { start: t0, detail: { entries: entries.length } });
  if (signal?.aborted) return undefined;
  await onOutline({ ...base, entries, awaiting });
  if (signal?.aborted) return undefined;
  const t1 = performance.now();
  const filled = await fillBodies(db, base, before, outlined, entries, awaiting, { onProgress, signal });
  performance.measure("cutpoint:load bodies", { start: t1 });
  return filled === true ? { session: { ...base, entries }, seeded } : filled;
}

/** Reads the outlined chunks' JSONL and gives each entry awaiting its body the parsed one. */
async function fillBodies(
  db: CutpointDb,
  base: Omit<LoadedSession, "entries">,
  before: number,
  outlined: Map<number, Outlined>,
  entries: SessionEntry[],
  awaiting: Set<SessionEntry>,
  { onProgress, signal }: Pick<LoadOptions, "onProgress" | "signal">,
): Promise<true | undefined | "read whole"> {
  const spec = { sessionId: base.id, generation: base.generation, from: 1, to: before };
  const parsed: SessionEntry[] = [];
  let chunkSeq = -1;
  /** Entries of the current chunk parsed so far, and whether its first body was checked. */
  let offset = 0;
  let checked = false;
  let sliceStart = performance.now();
  let reported = sliceStart;
  for await (const part of readSessionParts(db, spec)) {
    if (part.kind === "replaced") return undefined;
    if (part.kind !== "text") continue;
    const chunk = outlined.get(part.seq);
    // Read whole already (no outline).
    if (!chunk) continue;
    if (part.seq !== chunkSeq) {
      chunkSeq = part.seq;
      offset = 0;
      checked = false;
    }
    for (let pos = 0; pos < part.text.length; ) {
      parsed.length = 0;
      pos = parseLinesFrom(part.text, pos, parsed, LINES_PER_CHECK);
      for (const full of parsed) {
        const target = entries[chunk.start + offset];
        const count = chunk.tokens[offset];
        offset++;
        if (target === undefined || count === undefined) return "read whole";
        if (!awaiting.has(target)) {
          if (target.id !== full.id) return "read whole";
          continue;
        }
        if (!fillBody(target, full)) return "read whole";
        if (!seedFilled(target, count, !checked)) return "read whole";
        checked ||= count !== NO_MESSAGE;
        awaiting.delete(target);
      }
      const now = performance.now();
      if (now - sliceStart > SLICE_MS) {
        if (now - reported > PROGRESS_MS) {
          onProgress?.((part.seq - 1) / before);
          reported = now;
        }
        await yieldToEventLoop();
        if (signal?.aborted) return undefined;
        sliceStart = performance.now();
      }
    }
  }
  // Every outlined chunk read through: each of its entries has its body.
  for (const chunk of outlined.values())
    for (const at of chunk.bodiless) if (awaiting.has(entries[chunk.start + at]!)) return "read whole";
  return true;
}
