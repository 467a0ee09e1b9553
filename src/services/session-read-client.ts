/**
 * The page's side of the session read worker (services/session-read-worker.ts): one worker for
 * the page's life, started on the first read; each read is a job whose parts arrive as messages
 * and are handed out in order by a `PartQueue`. Where there is no Worker (tests) `readInWorker`
 * returns undefined and the caller reads in the page.
 */

import type { ReadSpec } from "./session-read.ts";
import type { ReadPart, ReadRequest, ReadWorkerMessage } from "./session-read-protocol.ts";

/** Parts pushed by one side, taken in order by an async iterator on the other. */
export interface PartQueue extends AsyncIterable<ReadPart> {
  /** The reader is done with the parts (also when it never iterated): the sender may stop. */
  stop(): void;
  push(part: ReadPart): void;
  end(): void;
  fail(error: Error): void;
}

export function createPartQueue(onStop?: () => void): PartQueue {
  const parts: ReadPart[] = [];
  let ended = false;
  let error: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  return {
    stop: () => onStop?.(),
    push(part) {
      if (ended) return;
      parts.push(part);
      notify();
    },
    end() {
      ended = true;
      notify();
    },
    fail(e) {
      if (ended) return;
      error = e;
      ended = true;
      notify();
    },
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          const part = parts.shift();
          if (part) {
            yield part;
            continue;
          }
          if (error) throw error;
          if (ended) return;
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
      } finally {
        // Done, or left early (aborted, replaced): a read still running may stop.
        onStop?.();
      }
    },
  };
}

/** The parts of several queues, one queue after the other; `stop` stops them all. */
export function chainParts(queues: readonly PartQueue[]): Omit<PartQueue, "push" | "end" | "fail"> {
  return {
    stop: () => {
      for (const q of queues) q.stop();
    },
    async *[Symbol.asyncIterator]() {
      try {
        for (const q of queues) yield* q;
      } finally {
        for (const q of queues) q.stop();
      }
    },
  };
}

/**
 * `spec`'s chunks cut into up to `ways` consecutive ranges of at least `minChunks` chunks each
 * (chunks are of about the same size, so the ranges are of about the same work).
 */
export function splitSpec(spec: ReadSpec, ways: number, minChunks: number): ReadSpec[] {
  const total = spec.to - spec.from + 1;
  const n = Math.max(1, Math.min(ways, Math.floor(total / minChunks)));
  const out: ReadSpec[] = [];
  for (let k = 0, from = spec.from; k < n; k++) {
    const to = k === n - 1 ? spec.to : from + Math.round(total / n) - 1;
    out.push({ ...spec, from, to });
    from = to + 1;
  }
  return out;
}

/**
 * Read workers: two, so that the two halves of a big session are parsed at once (on a 2-core
 * machine the page only takes the entries in meanwhile, e2e/bench/storage.bench.ts).
 */
const WORKERS = 1;
/** A read is split only when each worker gets at least this many chunks. */
const MIN_CHUNKS_PER_WORKER = 8;

const workers: (Worker | undefined)[] = [];
let nextJob = 1;
const jobs = new Map<number, PartQueue>();
/** When each job was sent (page clock). */
const started = new Map<number, number>();

function getWorker(k: number): Worker | undefined {
  const existing = workers[k];
  if (existing) return existing;
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
    // Every job fails (the ones of the other worker too: a read needs all its parts).
    const error = new Error(`The session read worker failed: ${event.message}`);
    for (const queue of jobs.values()) queue.fail(error);
    jobs.clear();
    workers[k] = undefined;
  };
  workers[k] = w;
  return w;
}

/** Starts the workers ahead of a read (their scripts and database open while the page reads the row). */
export function warmReadWorkers(): void {
  for (let k = 0; k < WORKERS; k++) getWorker(k);
}

function startJob(w: Worker, spec: ReadSpec): PartQueue {
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

/**
 * The parts of chunks `spec.from`..`spec.to` in order, read and parsed by the workers (a big
 * session in ranges, one per worker); undefined where there is no Worker.
 */
export function readInWorkers(spec: ReadSpec): ReturnType<typeof chainParts> | undefined {
  const ranges = splitSpec(spec, WORKERS, MIN_CHUNKS_PER_WORKER);
  const pool = ranges.map((_, k) => getWorker(k));
  if (pool.some((w) => w === undefined)) return undefined;
  return chainParts(ranges.map((range, k) => startJob(pool[k]!, range)));
}
