/**
 * The page's side of an import's handover: the lines the import worker kept for a stored session,
 * asked for ("send-entries") when the session's loader begins to take them, as the parts of a read
 * (services/session-handover.ts offers them to the loader).
 */
import type { ImportRequest } from "./import-protocol.ts";
import type { Waiter } from "./import-service.ts";
import { createPartQueue, type PartQueue } from "./part-queue.ts";

/** A handover that delivers nothing for this long failed (the worker died): the loader reads instead. */
const HANDOVER_STALL_MS = 5000;

/**
 * The entries the worker keeps for stored job `jobId`, as parts of a read: asked for when the
 * loader begins to take them, dropped in the worker when it stops without them all.
 */
export function handoverParts(
  jobId: number,
  lastSeq: number,
  { send, waiters }: { send: (request: ImportRequest) => void; waiters: Map<number, Waiter> },
): PartQueue {
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
