/// <reference lib="webworker" />
/**
 * Session read Web Worker: reads a stored session's chunks from IndexedDB and decodes them
 * (services/session-read.ts), posting the text to the page in parts of whole lines, so that the
 * page only parses (the reads and the decoding were ~40% of its time when it did it all) while
 * the worker reads and decodes the next ones. "cancel" stops a read between parts.
 */
import { parseChunkText } from "../db/chunks.ts";
import { createDb } from "../db/schema.ts";
import { parseShareDecider, readSessionParts } from "./session-read.ts";
import type { ReadRequest, ReadWorkerMessage } from "./session-read-protocol.ts";

const scope = self as unknown as DedicatedWorkerGlobalScope;
const db = createDb();
// Opened now, while the page reads the session's row (a failure shows in the first read).
db.open().catch(() => undefined);
/** Jobs being read, and those of them cancelled. */
const active = new Set<number>();
const cancelled = new Set<number>();

function post(message: ReadWorkerMessage): void {
  scope.postMessage(message);
}

async function read(request: Extract<ReadRequest, { type: "read" }>): Promise<void> {
  const { jobId } = request;
  active.add(jobId);
  const waited = { ms: 0 };
  let posting = 0;
  let chars = 0;
  let parsedChars = 0;
  const parseHere = parseShareDecider();
  const t0 = performance.now();
  try {
    for await (const part of readSessionParts(db, request, waited)) {
      if (cancelled.has(jobId)) break;
      let out = part;
      if (part.kind === "text") {
        chars += part.text.length;
        if (parseHere(part.text.length)) {
          parsedChars += part.text.length;
          out = { kind: "entries", entries: parseChunkText(part.text), seq: part.seq };
        }
      }
      const p0 = performance.now();
      post({ jobId, type: "part", part: out });
      posting += performance.now() - p0;
    }
    const decode = performance.now() - t0 - waited.ms - posting;
    const parsedShare = chars > 0 ? parsedChars / chars : 0;
    post({ jobId, type: "done", timings: { wait: waited.ms, decode, post: posting, parsedShare } });
  } catch (e) {
    post({ jobId, type: "failed", message: e instanceof Error ? e.message : String(e) });
  } finally {
    active.delete(jobId);
    cancelled.delete(jobId);
  }
}

scope.onmessage = (event: MessageEvent<ReadRequest>) => {
  const msg = event.data;
  if (msg.type === "read") void read(msg);
  else if (active.has(msg.jobId)) cancelled.add(msg.jobId);
};
