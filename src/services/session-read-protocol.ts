/** Messages between the page and the session read worker (services/session-read-worker.ts). */
import type { SessionEntry } from "../core/session/types.ts";

/** Read chunks `from`..`to` of a session of `generation`; "cancel" stops a read (aborted load). */
export type ReadRequest =
  | { type: "read"; jobId: number; sessionId: string; generation: number; from: number; to: number }
  | { type: "cancel"; jobId: number };

/**
 * A part of what a read yields, in order: the decoded JSONL text of whole lines of chunk `seq`
 * (for the page to parse), the same lines parsed by the worker, or "replaced" (the read ends:
 * the session was replaced meanwhile). See `PARSE_SHARE` for why both.
 */
export type ReadPart =
  | { kind: "text"; text: string; seq: number }
  | { kind: "entries"; entries: SessionEntry[]; seq: number }
  | { kind: "replaced" };

export type ReadWorkerMessage =
  | ({ jobId: number; type: "part" } & { part: ReadPart })
  | { jobId: number; type: "done"; timings: ReadTimings }
  | { jobId: number; type: "failed"; message: string };

/** Worker-side time (ms): waiting for IndexedDB, decoding and parsing, posting the parts. */
export interface ReadTimings {
  wait: number;
  decode: number;
  post: number;
  /** The share of the text (by characters) that the worker parsed. */
  parsedShare: number;
}
