/**
 * Turning a file into a session ready to store: parse + migrate (core), then chunks and
 * metadata (db). Runs in the import Web Worker; pure, so tests call it directly.
 */
import type { LineProblem, PathSummary } from "../core/session/damage.ts";
import { createSessionByteParser, EMPTY_FILE_MESSAGE } from "../core/session/parse.ts";
import { buildSourceChunks, serializeEntryLine } from "../db/chunks.ts";
import { createMetaAccumulator } from "../db/session-meta.ts";
import type { PreparedSession } from "../db/sessions-repo.ts";

export interface ImportCandidate {
  fileName: string;
  prepared: PreparedSession;
  /** What is wrong with the file, line by line (never silently skipped: the person decides). */
  problems: LineProblem[];
  /** The current path of what would be stored. */
  path: PathSummary;
  /**
   * With `keepLines`: the JSONL line of each stored entry (its own text, or the line written anew
   * for a migrated or rewritten one), to hand to the page after the store. Lines rather than the
   * parsed entries: keeping 100 MB of entries alive made the import's parse ~15% slower in GC.
   */
  lines?: string[];
}

export interface ImportRejection {
  fileName: string;
  message: string;
}

export type PrepareResult = { ok: true; value: ImportCandidate } | { ok: false; error: ImportRejection };

/**
 * Builds an import candidate from a file's bytes, piece by piece (the import worker pushes each
 * piece as it is read). Each entry feeds the metadata as it is parsed, and a v3 file's lines are
 * stored as slices of the file itself (`buildSourceChunks`); the lines that must be written anew
 * (migrated entries, CRLF lines) are kept as text. Every stored line is kept only with
 * `keepLines` (the worker hands them to the page after the store, see import-worker.ts).
 */
export function createImportBuilder(fileName: string, { keepLines = false } = {}) {
  const meta = createMetaAccumulator();
  const rewritten = new Map<number, string>();
  const kept: string[] | undefined = keepLines ? [] : undefined;
  const parser = createSessionByteParser({
    retainEntries: false,
    onEntry: (entry, index, verbatim, text) => {
      meta.add(entry);
      if (verbatim && text !== undefined) kept?.push(text);
      else {
        const line = serializeEntryLine(entry);
        rewritten.set(index, line);
        kept?.push(line);
      }
    },
  });
  return {
    push(bytes: Uint8Array): void {
      parser.push(bytes);
    },
    /** `source`: the whole file (its slices become the stored chunks). */
    finish(source: Blob): PrepareResult {
      const parsed = parser.finish();
      if (!parsed.ok) {
        if (parsed.error.message === EMPTY_FILE_MESSAGE) return emptyFile(fileName);
        const where = parsed.error.line ? ` (line ${parsed.error.line})` : "";
        const why = parsed.error.message.replace(/^Not a pi session: /, "");
        return { ok: false, error: { fileName, message: `Not a pi session${where}: ${why}` } };
      }
      const { header, entryCount, problems, path, originalVersion, verbatimSpans } = parsed.value;
      const chunks = buildSourceChunks(entryCount, verbatimSpans, source, (i) => rewritten.get(i) ?? "");
      const prepared: PreparedSession = { header, chunks, meta: meta.result(), originalVersion };
      const value: ImportCandidate = { fileName, prepared, problems, path };
      if (kept) value.lines = kept;
      return { ok: true, value };
    },
  };
}

/** The candidate for a whole file at once (tests; the worker streams with `createImportBuilder`). */
export function prepareImport(
  fileName: string,
  content: string | Uint8Array,
  options: { keepLines?: boolean } = {},
): PrepareResult {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  const builder = createImportBuilder(fileName, options);
  builder.push(bytes);
  return builder.finish(new Blob([bytes as Uint8Array<ArrayBuffer>]));
}

function emptyFile(fileName: string): PrepareResult {
  return { ok: false, error: { fileName, message: "The file is empty: it is not a pi session." } };
}
