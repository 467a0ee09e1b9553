/**
 * The page's side of the session read worker (services/session-read-worker.ts): one worker for
 * the page's life, started on the first read; each read is a job whose parts arrive as messages
 * and are handed out in order by a `PartQueue`. Where there is no Worker (tests) `readInWorker`
 * returns undefined and the caller reads in the page. (Two workers, each reading half of the
 * chunks, were no faster on the 2-core machine: e2e/bench/storage.bench.ts.)
 */

import { createPartQueue, type PartQueue } from "./part-queue.ts";
import type { ReadSpec } from "./session-read.ts";
import type { ReadRequest, ReadWorkerMessage } from "./session-read-protocol.ts";

let worker: Worker | undefined;
let nextJob = 1;
const jobs = new Map<number, PartQueue>();
/** When each job was sent (page clock). */
const started = new Map<number, number>();

function getWorker(): Worker | undefined {
  if (worker) return worker;
  if (typeof Worker === "undefined") return undefined;
  const w = new Worker(new URL("./session-read-worker.ts", import.meta.url), { type: "module" });
  w.onmessage = (event: MessageEvent<ReadWorkerMessage>) => {
    const msg = event.data;
    const queue = jobs.get(msg.jobId);
    if (!queue) return;
    if (msg.type === "part") queue.push(msg.part);
    else {
      const start = started.get(msg.jobId) ?? 0;
      jobs.delete(msg.jobId);
      started.delete(msg.jobId);
      if (msg.type === "done") {
        // The worker's share of a read, as a measure (the storage bench reports it).
        performance.measure("cutpoint:read-worker", { start, detail: msg.timings });
        queue.end();
      } else queue.fail(new Error(msg.message));
    }
  };
  w.onerror = (event) => {
    const error = new Error(`The session read worker failed: ${event.message}`);
    for (const queue of jobs.values()) queue.fail(error);
    jobs.clear();
    worker = undefined;
  };
  worker = w;
  return w;
}

/**
 * The parts of chunks `spec.from`..`spec.to` in order, read by the worker; undefined where there
 * is no Worker. `stop()` when done with them (also when never iterated).
 */
export function readInWorker(spec: ReadSpec): PartQueue | undefined {
  const w = getWorker();
  if (!w) return undefined;
  const jobId = nextJob++;
  const queue = createPartQueue(() => {
    started.delete(jobId);
    if (!jobs.delete(jobId)) return;
    const cancel: ReadRequest = { type: "cancel", jobId };
    w.postMessage(cancel);
  });
  jobs.set(jobId, queue);
  started.set(jobId, performance.now());
  const request: ReadRequest = { type: "read", jobId, ...spec };
  w.postMessage(request);
  return queue;
}
