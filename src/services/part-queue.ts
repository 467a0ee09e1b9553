/** A queue of a read's parts: pushed as messages arrive, taken in order by an async iterator. */
import type { SessionEntry } from "../core/session/types.ts";
import type { ReadPart } from "./session-read-protocol.ts";

/** Parts pushed by one side, taken in order by an async iterator on the other. */
export interface PartQueue extends AsyncIterable<ReadPart> {
  /** The reader is done with the parts (also when it never iterated): the sender may stop. */
  stop(): void;
  push(part: ReadPart): void;
  end(): void;
  fail(error: Error): void;
  /** The newest `n` entries, when the sender has them all at hand (an import's handover). */
  newest?: (n: number) => SessionEntry[];
}

/** `onStop`: the reader is done; `onStart`: it begins to take the parts (their sender may start). */
export function createPartQueue(onStop?: () => void, onStart?: () => void): PartQueue {
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
      onStart?.();
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
