/**
 * The tab's channel for entries shown before their write commits (a leaf move appears in the frame
 * of the click): the writer shows a batch and withdraws it if the write fails; the open session's
 * view listens. Owned by the tab's services (services/app/app-services.ts), not a module global.
 */
import type { SessionEntry } from "../../core/session/types.ts";

export interface PendingBatch {
  token: number;
  sessionId: string;
  entries: readonly SessionEntry[];
  /** The entries this batch was shown after, and the array shown with it (ui/hooks/pending-entries.ts). */
  base?: SessionEntry[];
  view?: SessionEntry[];
}

export type PendingEvent = { kind: "show"; batch: PendingBatch } | { kind: "withdraw"; token: number };

export interface PendingEntries {
  /** Hears every batch shown or withdrawn; returns the unsubscribe. */
  on(listener: (event: PendingEvent) => void): () => void;
  /** Shows `entries` after the session's stored entries until they commit; returns `withdraw`. */
  show(sessionId: string, entries: readonly SessionEntry[]): () => void;
}

export function createPendingEntries(): PendingEntries {
  const listeners = new Set<(event: PendingEvent) => void>();
  let nextToken = 1;
  const emit = (event: PendingEvent) => {
    for (const listener of listeners) listener(event);
  };
  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    show(sessionId, entries) {
      const batch: PendingBatch = { token: nextToken++, sessionId, entries };
      emit({ kind: "show", batch });
      return () => emit({ kind: "withdraw", token: batch.token });
    },
  };
}
