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
import { createPartQueue, type PartQueue } from "./part-queue.ts";
import { offerEntries } from "./session-handover.ts";

export type { ImportChoice, ParsedSummary };
export type ImportPhase = "read" | "parse" | "prepare" | "save";
export type ImportProgress = (phase: ImportPhase, fraction: number) => void;

type Waiter = {
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
        waiter.onMessage = (msg) => {
          if (msg.type !== "committed") return;
          waiters.delete(jobId);
          if (!msg.ok) {
            resolve({ ok: false, error: msg.error });
            return;
          }
          // The parsed entries: offered to the loader of the session (session-handover.ts).
          if (msg.handedOver) offerEntries(msg.row, handoverParts(jobId, msg.row.lastSeq));
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

/** A handover that delivers nothing for this long failed (the worker died): the loader reads instead. */
const HANDOVER_STALL_MS = 5000;

/**
 * The entries the worker keeps for stored job `jobId`, as parts of a read: asked for when the
 * loader begins to take them, dropped in the worker when it stops without them all.
 */
function handoverParts(jobId: number, lastSeq: number): PartQueue {
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  const watch = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(
      () => parts.fail(new Error("The import worker stopped sending entries.")),
      HANDOVER_STALL_MS,
    );
  };
  let complete = false;
  const stop = () => {
    clearTimeout(watchdog);
    waiters.delete(jobId);
    // Not all taken (the load was aborted, or the offer dropped): the worker forgets them.
    if (!complete) send({ type: "discard", jobId });
  };
  const parts = createPartQueue(stop, () => {
    waiters.set(jobId, {
      onMessage: (msg) => {
        // The worker failed (onerror): the loader reads the stored chunks instead.
        if (msg.type === "committed" && !msg.ok) parts.fail(new Error(msg.error.message));
        if (msg.type !== "entries") return;
        if (msg.done < 0) {
          parts.fail(new Error("The import worker kept no entries."));
          return;
        }
        // As if read up to the chunk as far in (the loader reports progress by chunks).
        const seq = Math.max(1, Math.ceil(msg.done * lastSeq));
        parts.push(
          typeof msg.body === "string"
            ? { kind: "text", text: msg.body, seq }
            : { kind: "entries", entries: msg.body, seq },
        );
        if (msg.done < 1) watch();
        else {
          complete = true;
          clearTimeout(watchdog);
          waiters.delete(jobId);
          parts.end();
        }
      },
    });
    watch();
    send({ type: "send-entries", jobId });
  });
  return parts;
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
