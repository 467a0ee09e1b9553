/// <reference lib="webworker" />
/**
 * Import Web Worker: reads a File, parses and migrates it, builds the stored chunks, and posts
 * the prepared session back. The page never freezes on a 100 MB file; progress is posted.
 */
import { type PrepareResult, prepareImport } from "./import-prepare.ts";

export interface ImportRequest {
  jobId: number;
  file: Blob;
  fileName: string;
}

export type ImportWorkerMessage =
  | { jobId: number; type: "progress"; phase: "read" | "parse" | "prepare"; fraction: number }
  | { jobId: number; type: "done"; result: PrepareResult };

const scope = self as unknown as DedicatedWorkerGlobalScope;

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

function post(message: ImportWorkerMessage): void {
  scope.postMessage(message);
}

scope.onmessage = async (event: MessageEvent<ImportRequest>) => {
  const { jobId, file, fileName } = event.data;
  try {
    const text = await readText(jobId, file);
    const result = prepareImport(fileName, text, (fraction) =>
      post({ jobId, type: "progress", phase: "parse", fraction }),
    );
    post({ jobId, type: "progress", phase: "prepare", fraction: 1 });
    post({ jobId, type: "done", result });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    post({
      jobId,
      type: "done",
      result: { ok: false, error: { fileName, message: `Could not read the file: ${message}` } },
    });
  }
};
