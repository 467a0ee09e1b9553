/**
 * The page's side of opfs-write-worker.ts: writes a file of the origin-private file system through
 * a dedicated worker's sync access handle, one request at a time per message id. The worker is made
 * by the caller (`makeWorker`, so that this module stays free of bundler syntax) on first use.
 */

export interface SyncWriteRequest {
  id: number;
  /** Path from the OPFS root, one name per part (the workspace's directory first). */
  parts: string[];
  content: string;
}

export type SyncWriteReply =
  | { id: number; ok: true }
  | { id: number; ok: false; name: string; message: string };

/** The part of a Worker used here. */
export interface WorkerLike {
  postMessage(message: SyncWriteRequest): void;
  addEventListener(type: "message", listener: (event: { data: SyncWriteReply }) => void): void;
  addEventListener(type: "error", listener: (event: unknown) => void): void;
  terminate(): void;
}

export type SyncWriteResult = { ok: true } | { ok: false; name: string; message: string };

export interface SyncWriter {
  write(parts: string[], content: string): Promise<SyncWriteResult>;
}

export function createSyncWriter(makeWorker: () => WorkerLike): SyncWriter {
  let worker: WorkerLike | null = null;
  let nextId = 1;
  const pending = new Map<number, (result: SyncWriteResult) => void>();

  const start = (): WorkerLike | null => {
    if (worker) return worker;
    try {
      worker = makeWorker();
    } catch {
      return null;
    }
    worker.addEventListener("message", (event) => {
      const reply = event.data;
      const resolve = pending.get(reply.id);
      pending.delete(reply.id);
      resolve?.(reply.ok ? { ok: true } : { ok: false, name: reply.name, message: reply.message });
    });
    worker.addEventListener("error", () => {
      // The worker did not load or crashed: every waiting write failed; the next one starts anew.
      for (const resolve of pending.values())
        resolve({ ok: false, name: "WorkerError", message: "the file writer stopped" });
      pending.clear();
      worker?.terminate();
      worker = null;
    });
    return worker;
  };

  return {
    write(parts, content) {
      const w = start();
      if (!w)
        return Promise.resolve({
          ok: false,
          name: "WorkerError",
          message: "the file writer could not start",
        });
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        w.postMessage({ id, parts, content });
      });
    },
  };
}
