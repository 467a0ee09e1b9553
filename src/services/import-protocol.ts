/** Messages between the page and the import worker. */
import type { LineProblem, PathSummary } from "../core/session/damage.ts";
import type { SessionEntry, SessionHeader } from "../core/session/types.ts";
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
  /** `handOver`: after the store, keep the entries for "send-entries" (or "discard"). */
  | { type: "commit"; jobId: number; choice: ImportChoice; newId: string; handOver: boolean }
  | { type: "send-entries"; jobId: number }
  | { type: "discard"; jobId: number };

export type ImportWorkerMessage =
  | { jobId: number; type: "progress"; phase: "read" | "parse" | "prepare"; fraction: number }
  | { jobId: number; type: "parsed"; ok: true; summary: ParsedSummary }
  | { jobId: number; type: "parsed"; ok: false; error: { fileName: string; message: string } }
  | {
      jobId: number;
      type: "committed";
      ok: true;
      row: SessionRow;
      saveMs: number;
      /** The entries are kept for "send-entries". */
      handedOver: boolean;
    }
  | { jobId: number; type: "committed"; ok: false; error: DbError }
  /**
   * Answers "send-entries": the stored entries' JSONL lines in order, in batches of whole lines,
   * each as text or parsed by the worker (`body`; see session-read.ts `PARSE_SHARE`) (`done`: the
   * share of all entries sent so far, 1 with the last batch; -1: none are kept).
   * Sent only when the session's loader asks, so that the page parses them then, not while it
   * shows the import's result.
   */
  | { jobId: number; type: "entries"; body: string | SessionEntry[]; done: number };
