/**
 * Turning a file's text into a session ready to store: parse + migrate (core), then chunks and
 * metadata (db). Runs in the import Web Worker; pure, so tests call it directly.
 */
import { type LineProblem, parseSessionJsonl } from "../core/session/parse.ts";
import { type PreparedSession, prepareSession } from "../db/sessions-repo.ts";

export interface ImportCandidate {
  fileName: string;
  prepared: PreparedSession;
  /** Lines that could not be read (never silently skipped: the person decides). */
  problems: LineProblem[];
}

export interface ImportRejection {
  fileName: string;
  message: string;
}

export type PrepareResult = { ok: true; value: ImportCandidate } | { ok: false; error: ImportRejection };

export function prepareImport(
  fileName: string,
  text: string,
  onProgress?: (fraction: number) => void,
): PrepareResult {
  if (text.trim() === "") {
    return { ok: false, error: { fileName, message: "The file is empty: it is not a pi session." } };
  }
  const parsed = parseSessionJsonl(text, onProgress ? { onProgress } : {});
  if (!parsed.ok) {
    const where = parsed.error.line ? ` (line ${parsed.error.line})` : "";
    return {
      ok: false,
      error: { fileName, message: `Not a pi session${where}: ${parsed.error.message}` },
    };
  }
  const { header, entries, problems, originalVersion } = parsed.value;
  return {
    ok: true,
    value: { fileName, prepared: prepareSession(header, entries, originalVersion), problems },
  };
}

/** A one-paragraph description of the bad lines: how many, the first line numbers, why. */
export function describeProblems(problems: readonly LineProblem[], shown = 5): string {
  if (problems.length === 0) return "";
  const first = problems.slice(0, shown).map((p) => `line ${p.line}: ${p.reason}`);
  const more = problems.length > shown ? `; and ${problems.length - shown} more` : "";
  const noun = problems.length === 1 ? "line" : "lines";
  return `${problems.length} ${noun} could not be read (${first.join("; ")}${more}).`;
}
