/// <reference lib="webworker" />
/**
 * Import Web Worker: reads a File in pieces (parsing each piece while the next is read), parses
 * and migrates it, builds the stored chunks (a v3 file's lines are slices of the File itself,
 * see db/chunks.ts `buildSourceChunks`), and keeps
 * them until the page answers: "commit" stores the session in ONE transaction from here (the
 * page never blocks on serializing the 100 MB) and keeps the stored lines: the page opens the
 * session next and asks for them ("send-entries") instead of reading the chunks back from
 * IndexedDB and decoding them (services/session-handover.ts); "discard" drops what is kept.
 * Progress is posted while reading and parsing.
 */

import { parseChunkText } from "../db/chunks.ts";
import { createDb } from "../db/schema.ts";
import { saveSession, withNewId } from "../db/sessions-repo.ts";
import { createImportBuilder, type ImportCandidate } from "./import-prepare.ts";
import type { ImportRequest, ImportWorkerMessage } from "./import-protocol.ts";
import { parseShareDecider } from "./session-read.ts";

const scope = self as unknown as DedicatedWorkerGlobalScope;
const db = createDb();
const held = new Map<number, ImportCandidate>();
/** The lines of stored imports, until the page takes them ("send-entries") or drops them. */
const handedOver = new Map<number, string[]>();

function post(message: ImportWorkerMessage): void {
  scope.postMessage(message);
}

/** Bytes read per request; the next piece is requested before the current one is parsed. */
const READ_STEP = 8 * 1024 * 1024;

async function parse(jobId: number, file: Blob, fileName: string): Promise<void> {
  try {
    const t0 = performance.now();
    const builder = createImportBuilder(fileName, { keepLines: true });
    let waitMs = 0;
    let next = file.size > 0 ? file.slice(0, READ_STEP).arrayBuffer() : undefined;
    for (let at = 0; next !== undefined; at += READ_STEP) {
      const w0 = performance.now();
      const buffer = await next;
      waitMs += performance.now() - w0;
      next =
        at + READ_STEP < file.size ? file.slice(at + READ_STEP, at + 2 * READ_STEP).arrayBuffer() : undefined;
      builder.push(new Uint8Array(buffer));
      post({ jobId, type: "progress", phase: "parse", fraction: Math.min(1, (at + READ_STEP) / file.size) });
    }
    const t1 = performance.now();
    const result = builder.finish(file);
    const t2 = performance.now();
    if (!result.ok) {
      post({ jobId, type: "parsed", ok: false, error: result.error });
      return;
    }
    held.set(jobId, result.value);
    const { prepared, problems, path } = result.value;
    post({
      jobId,
      type: "parsed",
      ok: true,
      summary: {
        fileName,
        header: prepared.header,
        meta: prepared.meta,
        problems,
        path,
        originalVersion: prepared.originalVersion,
        // read: waiting for bytes; parse: decoding and parsing while reading; prepare: chunks, metadata.
        timings: { read: waitMs, parse: t1 - t0 - waitMs, prepare: t2 - t1 },
      },
    });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    post({
      jobId,
      type: "parsed",
      ok: false,
      error: { fileName, message: `Could not read the file: ${message}` },
    });
  }
}

/** Lines per handover message (~256 KB, as a part read from the stored chunks). */
const HANDOVER_BATCH = 256;

async function commit(
  jobId: number,
  choice: "new" | "replace" | "copy",
  newId: string,
  handOver: boolean,
): Promise<void> {
  const candidate = held.get(jobId);
  held.delete(jobId);
  if (!candidate) {
    post({ jobId, type: "committed", ok: false, error: { kind: "unknown", message: "The import expired." } });
    return;
  }
  const prepared = choice === "copy" ? withNewId(candidate.prepared, newId) : candidate.prepared;
  const t0 = performance.now();
  const saved = await saveSession(db, prepared, choice === "replace" ? "replace" : "new");
  const saveMs = performance.now() - t0;
  if (!saved.ok) {
    post({ jobId, type: "committed", ok: false, error: saved.error });
    return;
  }
  // The page opens the session next: it asks for these instead of reading the chunks back.
  if (handOver && candidate.lines) handedOver.set(jobId, candidate.lines);
  post({ jobId, type: "committed", ok: true, row: saved.value, saveMs, handedOver: handOver });
}

/** Posts the lines kept for a stored import ("send-entries") as JSONL text in batches, then forgets them. */
function sendEntries(jobId: number): void {
  const lines = handedOver.get(jobId);
  handedOver.delete(jobId);
  if (!lines) {
    post({ jobId, type: "entries", body: "", done: -1 });
    return;
  }
  // Part of the lines parsed here, while the page parses the others.
  const parseHere = parseShareDecider();
  for (let at = 0; at === 0 || at < lines.length; at += HANDOVER_BATCH) {
    const done = Math.min(1, (at + HANDOVER_BATCH) / Math.max(1, lines.length));
    const batch = lines.slice(at, at + HANDOVER_BATCH);
    const text = batch.length > 0 ? `${batch.join("\n")}\n` : "";
    post({ jobId, type: "entries", body: parseHere(text.length) ? parseChunkText(text) : text, done });
  }
}

scope.onmessage = (event: MessageEvent<ImportRequest>) => {
  const msg = event.data;
  if (msg.type === "parse") void parse(msg.jobId, msg.file, msg.fileName);
  else if (msg.type === "commit") void commit(msg.jobId, msg.choice, msg.newId, msg.handOver);
  else if (msg.type === "send-entries") sendEntries(msg.jobId);
  else {
    held.delete(msg.jobId);
    handedOver.delete(msg.jobId);
  }
};
