/**
 * Importing .jsonl files: parse in a Web Worker (with progress), let the person decide about
 * bad lines or an id that already exists, then the worker stores the session in ONE
 * transaction (it appears whole or not at all).
 *
 * Re-importing a session whose id exists: the person chooses "Replace" (the stored session is
 * overwritten as a whole; open views reload) or "Import as a copy" (the same entries under a
 * fresh session id, side by side), or cancels. Nothing is ever merged.
 */
import { type CutpointDb, getSession, type Result } from "../db/index.ts";
import type { SessionRow } from "../db/schema.ts";
import type { ImportChoice, ImportRequest, ImportWorkerMessage, ParsedSummary } from "./import-protocol.ts";
import { offerEntries } from "./session-handover.ts";

export type { ImportChoice, ParsedSummary };
export type ImportPhase = "read" | "parse" | "prepare" | "save";
export type ImportProgress = (phase: ImportPhase, fraction: number) => void;

export type Waiter = {
  onProgress?: ImportProgress;
  onMessage: (msg: ImportWorkerMessage) => void;
};

let worker: Worker | undefined;
let nextJob = 1;
const waiters = new Map<number, Waiter>();

function getWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL("./import-worker.ts", import.meta.url), { type: "module" });
  w.onmessage = (event: MessageEvent<ImportWorkerMessage>) => {
    const msg = event.data;
    const waiter = waiters.get(msg.jobId);
    if (!waiter) return;
    if (msg.type === "progress") waiter.onProgress?.(msg.phase, msg.fraction);
    else waiter.onMessage(msg);
  };
  w.onerror = (event) => {
    const error = { kind: "unknown" as const, message: `The import worker failed: ${event.message}` };
    for (const [jobId, waiter] of waiters) {
      waiter.onMessage({ jobId, type: "committed", ok: false, error });
      waiter.onMessage({ jobId, type: "parsed", ok: false, error: { fileName: "", message: error.message } });
    }
    waiters.clear();
    worker = undefined;
  };
  worker = w;
  return w;
}

function send(request: ImportRequest): void {
  getWorker().postMessage(request);
}

/** A parsed file held by the worker until `commit` or `discard`. */
export interface ParsedImport {
  jobId: number;
  summary: ParsedSummary;
  commit(choice: ImportChoice, newId?: string): Promise<Result<SessionRow> & { saveMs?: number }>;
  discard(): void;
}

/** Parses a file off the main thread. */
export function parseFile(
  file: File,
  onProgress?: ImportProgress,
): Promise<{ ok: true; value: ParsedImport } | { ok: false; error: { fileName: string; message: string } }> {
  const jobId = nextJob++;
  return new Promise((resolve) => {
    const waiter: Waiter = {
      onMessage: (msg) => {
        if (msg.type !== "parsed") return;
        if (!msg.ok) {
          waiters.delete(jobId);
          resolve({ ok: false, error: msg.error });
          return;
        }
        resolve({ ok: true, value: parsedImport(jobId, msg.summary, waiter) });
      },
    };
    if (onProgress) waiter.onProgress = onProgress;
    waiters.set(jobId, waiter);
    send({ type: "parse", jobId, file, fileName: file.name });
  });
}

function parsedImport(jobId: number, summary: ParsedSummary, waiter: Waiter): ParsedImport {
  return {
    jobId,
    summary,
    commit: (choice, newId = crypto.randomUUID()) =>
      new Promise((resolve) => {
        // A lazy chunk (not in the initial JS), loaded while the worker stores the session.
        const handover = import("./import-handover.ts");
        waiter.onMessage = async (msg) => {
          if (msg.type !== "committed") return;
          waiters.delete(jobId);
          if (!msg.ok) {
            resolve({ ok: false, error: msg.error });
            return;
          }
          // The parsed entries: offered to the loader of the session (session-handover.ts).
          if (msg.handedOver) {
            const { handoverParts } = await handover;
            offerEntries(msg.row, handoverParts(jobId, msg.row.lastSeq, { send, waiters }));
          }
          resolve({ ok: true, value: msg.row, saveMs: msg.saveMs });
        };
        waiter.onProgress?.("save", 1);
        send({ type: "commit", jobId, choice, newId, handOver: true });
      }),
    discard: () => {
      waiters.delete(jobId);
      send({ type: "discard", jobId });
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
