/** Messages between the page and the import worker. */
import type { LineProblem, PathSummary } from "../core/session/damage.ts";
import type { SessionHeader } from "../core/session/types.ts";
import type { DbError, EntriesMeta, SessionRow } from "../db/index.ts";

export type ImportChoice = "new" | "replace" | "copy";

/** What the page needs to know about a parsed file (the entries stay in the worker). */
export interface ParsedSummary {
  fileName: string;
  header: SessionHeader;
  meta: EntriesMeta;
  problems: LineProblem[];
  /** The current path of what would be stored (how many entries, where it starts). */
  path: PathSummary;
  originalVersion: number;
  /**
   * Worker-side timings (ms): read = waiting for the file's bytes, parse = decoding and parsing
   * (overlapping the reads), prepare = chunks and metadata.
   */
  timings: { read: number; parse: number; prepare: number };
}

export type ImportRequest =
  | { type: "parse"; jobId: number; file: Blob; fileName: string }
  | { type: "commit"; jobId: number; choice: ImportChoice; newId: string }
  | { type: "discard"; jobId: number };

export type ImportWorkerMessage =
  | { jobId: number; type: "progress"; phase: "read" | "parse" | "prepare"; fraction: number }
  | { jobId: number; type: "parsed"; ok: true; summary: ParsedSummary }
  | { jobId: number; type: "parsed"; ok: false; error: { fileName: string; message: string } }
  | { jobId: number; type: "committed"; ok: true; row: SessionRow; saveMs: number }
  | { jobId: number; type: "committed"; ok: false; error: DbError };
