/// <reference lib="webworker" />
/**
 * Import Web Worker: reads a File, parses and migrates it, builds the stored chunks, and keeps
 * them until the page answers: "commit" stores the session in ONE transaction from here (the
 * 100 MB never cross to the page, and the page never blocks on serializing them), "discard"
 * drops it. Progress is posted while reading and parsing.
 */
import { createDb } from "../db/schema.ts";
import { saveSession, withNewId } from "../db/sessions-repo.ts";
import { type ImportCandidate, prepareImport } from "./import-prepare.ts";
import type { ImportRequest, ImportWorkerMessage } from "./import-protocol.ts";

const scope = self as unknown as DedicatedWorkerGlobalScope;
const db = createDb();
const held = new Map<number, ImportCandidate>();

function post(message: ImportWorkerMessage): void {
  scope.postMessage(message);
}

async function readText(jobId: number, file: Blob): Promise<string> {
  const step = 16 * 1024 * 1024;
  const decoder = new TextDecoder("utf-8");
  const parts: string[] = [];
  for (let at = 0; at < file.size; at += step) {
    const buf = await file.slice(at, at + step).arrayBuffer();
    parts.push(decoder.decode(buf, { stream: true }));
    post({ jobId, type: "progress", phase: "read", fraction: Math.min(1, (at + step) / file.size) });
  }
  parts.push(decoder.decode());
  return parts.join("");
}

async function parse(jobId: number, file: Blob, fileName: string): Promise<void> {
  try {
    const t0 = performance.now();
    const text = await readText(jobId, file);
    const t1 = performance.now();
    const result = prepareImport(fileName, text, (fraction) =>
      post({ jobId, type: "progress", phase: "parse", fraction }),
    );
    const t2 = performance.now();
    if (!result.ok) {
      post({ jobId, type: "parsed", ok: false, error: result.error });
      return;
    }
    held.set(jobId, result.value);
    const { prepared, problems } = result.value;
    post({
      jobId,
      type: "parsed",
      ok: true,
      summary: {
        fileName,
        header: prepared.header,
        meta: prepared.meta,
        problems,
        originalVersion: prepared.originalVersion,
        timings: { read: t1 - t0, parse: t2 - t1 },
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

async function commit(jobId: number, choice: "new" | "replace" | "copy", newId: string): Promise<void> {
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
  if (saved.ok) post({ jobId, type: "committed", ok: true, row: saved.value, saveMs });
  else post({ jobId, type: "committed", ok: false, error: saved.error });
}

scope.onmessage = (event: MessageEvent<ImportRequest>) => {
  const msg = event.data;
  if (msg.type === "parse") void parse(msg.jobId, msg.file, msg.fileName);
  else if (msg.type === "commit") void commit(msg.jobId, msg.choice, msg.newId);
  else held.delete(msg.jobId);
};
