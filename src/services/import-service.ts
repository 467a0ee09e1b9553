/**
 * Importing .jsonl files: parse in a Web Worker (with progress), then let the person decide
 * about bad lines or an id that already exists, then store in ONE transaction.
 *
 * Re-importing a session whose id exists: the person chooses "Replace" (the stored session is
 * overwritten as a whole, readers reload) or "Import as copy" (same entries under a fresh
 * session id, so both exist side by side), or cancels. Nothing is ever merged.
 */

import { getSession, type Result, saveSession, withNewId } from "../db/index.ts";
import type { CutpointDb, SessionRow } from "../db/schema.ts";
import type { ImportCandidate, ImportRejection, PrepareResult } from "./import-prepare.ts";
import type { ImportRequest, ImportWorkerMessage } from "./import-worker.ts";

export type ImportPhase = "read" | "parse" | "prepare" | "save";
export type ImportProgress = (phase: ImportPhase, fraction: number) => void;

let worker: Worker | undefined;
let nextJob = 1;
const pending = new Map<number, { resolve: (r: PrepareResult) => void; onProgress?: ImportProgress }>();

function getWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL("./import-worker.ts", import.meta.url), { type: "module" });
  worker.onmessage = (event: MessageEvent<ImportWorkerMessage>) => {
    const msg = event.data;
    const job = pending.get(msg.jobId);
    if (!job) return;
    if (msg.type === "progress") job.onProgress?.(msg.phase, msg.fraction);
    else {
      pending.delete(msg.jobId);
      job.resolve(msg.result);
    }
  };
  worker.onerror = (event) => {
    for (const [id, job] of pending) {
      pending.delete(id);
      job.resolve({ ok: false, error: { fileName: "", message: `Import worker failed: ${event.message}` } });
    }
    worker = undefined;
  };
  return worker;
}

/** Parses a file off the main thread. */
export function parseFile(file: File, onProgress?: ImportProgress): Promise<PrepareResult> {
  const jobId = nextJob++;
  return new Promise((resolve) => {
    pending.set(jobId, onProgress ? { resolve, onProgress } : { resolve });
    const request: ImportRequest = { jobId, file, fileName: file.name };
    getWorker().postMessage(request);
  });
}

/** What the person must decide before a parsed file is stored (none: store directly). */
export interface ImportQuestions {
  /** Bad lines: import only the valid entries, or cancel. */
  problems: boolean;
  /** The session id exists: replace it, import as a copy, or cancel. */
  existing: SessionRow | undefined;
}

export async function questionsFor(db: CutpointDb, candidate: ImportCandidate): Promise<ImportQuestions> {
  return {
    problems: candidate.problems.length > 0,
    existing: await getSession(db, candidate.prepared.header.id),
  };
}

export type ImportChoice = "new" | "replace" | "copy";

/** Stores a parsed file as one transaction. */
export async function commitImport(
  db: CutpointDb,
  candidate: ImportCandidate,
  choice: ImportChoice,
  newId: () => string = () => crypto.randomUUID(),
): Promise<Result<SessionRow>> {
  const prepared = choice === "copy" ? withNewId(candidate.prepared, newId()) : candidate.prepared;
  return saveSession(db, prepared, choice === "replace" ? "replace" : "new");
}

export type { ImportCandidate, ImportRejection };
