/**
 * Turning a file into a session ready to store: parse + migrate (core), then chunks and
 * metadata (db). Run on the page in slices by services/import/import-service.ts; pure, so tests call it
 * directly.
 */
import type { LineProblem, PathSummary } from "../../core/session/damage.ts";
import { createSessionByteParser, EMPTY_FILE_MESSAGE, type Normalized } from "../../core/session/parse.ts";
import { runSteps, type Steps } from "../../core/session/steps.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { serializeEntryLine, sourceChunkSteps } from "../../db/chunks.ts";
import { createMetaAccumulator } from "../../db/session-meta.ts";
import type { PreparedSession } from "../../db/sessions-repo.ts";

export interface ImportCandidate {
  fileName: string;
  prepared: PreparedSession;
  /** What is wrong with the file, line by line (never silently skipped: the person decides). */
  problems: LineProblem[];
  /** The current path of what would be stored. */
  path: PathSummary;
  /** What the export will write differently from the file (BOM, CRLF, blank lines: parse.ts). */
  normalized: Normalized;
  /**
   * With `keepEntries`: every stored entry, in file order, as parsed (the session's loader takes
   * them after the store instead of reading the chunks back, see services/session/session-handover.ts).
   */
  entries?: SessionEntry[];
}

export interface ImportRejection {
  fileName: string;
  message: string;
}

export type PrepareResult = { ok: true; value: ImportCandidate } | { ok: false; error: ImportRejection };

/**
 * Builds an import candidate from a file's bytes, piece by piece (the import pushes each
 * piece as it is read). Each entry feeds the metadata as it is parsed, and a v3 file's lines are
 * stored as slices of the file itself (`sourceChunkSteps`); the lines that must be written anew
 * (migrated entries, CRLF lines) are kept as text. With `keepEntries`, the parsed entries are kept
 * too (the session view takes them after the store).
 */
export function createImportBuilder(fileName: string, { keepEntries = false } = {}) {
  const meta = createMetaAccumulator();
  const rewritten = new Map<number, string>();
  const kept: SessionEntry[] | undefined = keepEntries ? [] : undefined;
  const parser = createSessionByteParser({
    retainEntries: false,
    onEntry: (entry, index, verbatim, text) => {
      meta.add(entry);
      kept?.push(entry);
      if (!(verbatim && text !== undefined)) rewritten.set(index, serializeEntryLine(entry));
    },
  });
  return {
    push(bytes: Uint8Array): void {
      parser.push(bytes);
    },
    /** `source`: the whole file (its slices become the stored chunks). */
    finish(source: Blob): PrepareResult {
      return runSteps(finishSteps(source));
    },
    /** `finish` as steps (the tree's analysis, then one per chunk: core/session/steps.ts). */
    finishSteps,
  };

  function* finishSteps(source: Blob): Steps<PrepareResult> {
    const parsed = parser.finish();
    if (!parsed.ok) {
      if (parsed.error.message === EMPTY_FILE_MESSAGE) return emptyFile(fileName);
      // The parser's message names the line where one is to blame (parse.ts).
      return { ok: false, error: { fileName, message: parsed.error.message } };
    }
    yield;
    const { header, entryCount, problems, path, originalVersion, verbatimSpans, normalized } = parsed.value;
    const chunks = yield* sourceChunkSteps(entryCount, verbatimSpans, source, (i) => rewritten.get(i) ?? "");
    const prepared: PreparedSession = { header, chunks, meta: meta.result(), originalVersion };
    const value: ImportCandidate = { fileName, prepared, problems, path, normalized };
    if (kept) value.entries = kept;
    return { ok: true, value };
  }
}

/** The candidate for a whole file at once (tests; the import streams with `createImportBuilder`). */
export function prepareImport(
  fileName: string,
  content: string | Uint8Array,
  options: { keepEntries?: boolean } = {},
): PrepareResult {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  const builder = createImportBuilder(fileName, options);
  builder.push(bytes);
  return builder.finish(new Blob([bytes as Uint8Array<ArrayBuffer>]));
}

function emptyFile(fileName: string): PrepareResult {
  return { ok: false, error: { fileName, message: "The file is empty: it is not a pi session." } };
}
