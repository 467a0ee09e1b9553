/**
 * Importing .jsonl files: the file is read in pieces, parsed and then prepared for storage (the
 * tree's analysis, the chunks) on the page in slices of ~40 ms (the page stays responsive, with
 * progress), the person decides about bad lines or an id that
 * already exists, then the session is stored in ONE transaction (it appears whole or not at
 * all), and its parsed entries are handed to the session's loader (session-handover.ts): opening
 * it reads nothing back.
 *
 * Why on the page and not in a Web Worker, and what else was measured and dropped: docs/decisions.md,
 * "Importing a file".
 *
 * Re-importing a session whose id exists: the person chooses "Replace" (the stored session is
 * overwritten as a whole; open views reload) or "Import as a copy" (the same entries under a
 * fresh session id, side by side), or cancels. Nothing is ever merged.
 */
import type { LineProblem, PathSummary } from "../../core/session/damage.ts";
import type { Normalized } from "../../core/session/parse.ts";
import { type TailPreview, tailPreview } from "../../core/session/tail-preview.ts";
import type { SessionHeader } from "../../core/session/types.ts";
import {
  type CutpointDb,
  type EntriesMeta,
  getSession,
  type Result,
  saveSession,
  withNewId,
} from "../../db/index.ts";
import type { SessionRow } from "../../db/schema.ts";
import { newSessionId } from "../common/ids.ts";
import { runStepsInSlices, yieldToEventLoop } from "../common/yield.ts";
import type { SessionHandover } from "../session/session-handover.ts";
import { createImportBuilder, type ImportCandidate } from "./import-prepare.ts";

export type ImportChoice = "new" | "replace" | "copy";
export type ImportPhase = "read" | "parse" | "prepare" | "save";
export type ImportProgress = (phase: ImportPhase, fraction: number) => void;

/** What the person is asked about, and what the import reports, before anything is stored. */
export interface ParsedSummary {
  fileName: string;
  header: SessionHeader;
  meta: EntriesMeta;
  problems: LineProblem[];
  /** The current path of what would be stored (how many entries, where it starts). */
  path: PathSummary;
  /** What the export will write differently from the file (BOM, CRLF, blank lines). */
  normalized: Normalized;
  originalVersion: number;
  /**
   * Timings (ms): read = waiting for the file's bytes, parse = decoding and parsing (overlapping
   * the reads; the page's other work in between included), prepare = chunks and metadata.
   */
  timings: { read: number; parse: number; prepare: number };
}

/** A parsed file, kept until `commit` or `discard`. */
export interface ParsedImport {
  summary: ParsedSummary;
  commit(choice: ImportChoice, newId?: string): Promise<Result<SessionRow> & { saveMs?: number }>;
  discard(): void;
}

/** Bytes read per request; the next piece is requested before the current one is parsed. */
const READ_STEP = 8 * 1024 * 1024;
/** Bytes given to the parser at a time (a few ms of work), between looks at the clock. */
const PUSH_STEP = 128 * 1024;
/**
 * Work per task (tasks end a push after it: ~40-50 ms), well under the 100 ms a task may take.
 * 10 ms slices made ~4x the turns of the event loop for the same work: the parse took 1.22-1.53x
 * the browser's floor (read + parse) against 1.11-1.20x with 40 ms (docs/decisions.md).
 */
const SLICE_MS = 40;
/** Files from this size on show their newest entries (read from the file's end) while parsed. */
export const PREVIEW_MIN_BYTES = 4 * 1024 * 1024;
/** Bytes read for the preview: the header line from the start, the newest entries from the end. */
const PREVIEW_HEAD_BYTES = 64 * 1024;
const PREVIEW_TAIL_BYTES = 1024 * 1024;

/**
 * Parses a file on the page, in slices; the entries are kept for the session view. A big file's
 * newest entries go to `onPreview` first, read from its end (core tailPreview: for display
 * only, never stored as such; only a current-version file has one).
 */
export async function parseFile(
  db: CutpointDb,
  file: File,
  onProgress?: ImportProgress,
  onPreview?: (preview: TailPreview) => void,
  /** Where the parsed entries are offered to the session's loader after the store. */
  handover?: SessionHandover,
): Promise<{ ok: true; value: ParsedImport } | { ok: false; error: { fileName: string; message: string } }> {
  const fileName = file.name;
  try {
    const t0 = performance.now();
    // The entries are kept: the session view takes them after the store (its loader makes
    // their token estimates then: made here, the store came 0.1–0.2 s later on 100 MB).
    const builder = createImportBuilder(fileName, { keepEntries: true });
    let waitMs = 0;
    let sliceStart = performance.now();
    let next = file.size > 0 ? file.slice(0, READ_STEP).arrayBuffer() : undefined;
    if (onPreview && file.size >= PREVIEW_MIN_BYTES) {
      const tailStart = Math.max(0, file.size - PREVIEW_TAIL_BYTES);
      const [head, tail] = await Promise.all([
        file.slice(0, PREVIEW_HEAD_BYTES).arrayBuffer(),
        file.slice(tailStart).arrayBuffer(),
      ]);
      const preview = tailPreview(new Uint8Array(head), new Uint8Array(tail), tailStart);
      // Its render (a task of ~50-70 ms on a slow machine) in a task of its own, not after the parse.
      await yieldToEventLoop();
      if (preview) onPreview(preview);
    }
    for (let at = 0; next !== undefined; at += READ_STEP) {
      const w0 = performance.now();
      const bytes = new Uint8Array(await next);
      waitMs += performance.now() - w0;
      next =
        at + READ_STEP < file.size ? file.slice(at + READ_STEP, at + 2 * READ_STEP).arrayBuffer() : undefined;
      for (let p = 0; p < bytes.length; p += PUSH_STEP) {
        builder.push(bytes.subarray(p, p + PUSH_STEP));
        if (performance.now() - sliceStart > SLICE_MS) {
          onProgress?.("parse", Math.min(1, (at + p + PUSH_STEP) / file.size));
          await yieldToEventLoop();
          sliceStart = performance.now();
        }
      }
    }
    const t1 = performance.now();
    onProgress?.("prepare", 1);
    await yieldToEventLoop();
    const t2 = performance.now();
    // The tree's analysis, then the chunks, a few per task (all at once was a 70 ms task on 100 MB).
    const result = await runStepsInSlices(builder.finishSteps(file), SLICE_MS);
    const t3 = performance.now();
    if (!result.ok) return { ok: false, error: result.error };
    const { prepared, problems, path, normalized } = result.value;
    const summary: ParsedSummary = {
      fileName,
      header: prepared.header,
      meta: prepared.meta,
      problems,
      path,
      normalized,
      originalVersion: prepared.originalVersion,
      timings: { read: waitMs, parse: t1 - t0 - waitMs, prepare: t3 - t2 },
    };
    return { ok: true, value: parsedImport(db, result.value, summary, onProgress, handover) };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { ok: false, error: { fileName, message: `Could not read the file: ${message}` } };
  }
}

function parsedImport(
  db: CutpointDb,
  candidate: ImportCandidate,
  summary: ParsedSummary,
  onProgress: ImportProgress | undefined,
  handover: SessionHandover | undefined,
): ParsedImport {
  let kept: ImportCandidate | undefined = candidate;
  return {
    summary,
    async commit(choice, newId = newSessionId()) {
      const held = kept;
      kept = undefined;
      if (!held) return { ok: false, error: { kind: "unknown", message: "The import expired." } };
      onProgress?.("save", 1);
      const prepared = choice === "copy" ? withNewId(held.prepared, newId) : held.prepared;
      const t0 = performance.now();
      const saved = await saveSession(db, prepared, choice === "replace" ? "replace" : "new");
      const saveMs = performance.now() - t0;
      if (!saved.ok) return saved;
      if (held.entries) handover?.offer(saved.value, held.entries);
      return { ok: true, value: saved.value, saveMs };
    },
    discard: () => {
      kept = undefined;
    },
  };
}

/** What the person must decide before a parsed file is stored (nothing: store directly). */
export interface ImportQuestions {
  /** Problems (bad lines, invalid UTF-8, a broken tree): import the valid entries, or cancel. */
  problems: boolean;
  /** The session id exists: replace it, import as a copy, or cancel. */
  existing: SessionRow | undefined;
}

export async function questionsFor(db: CutpointDb, summary: ParsedSummary): Promise<ImportQuestions> {
  return { problems: summary.problems.length > 0, existing: await getSession(db, summary.header.id) };
}
