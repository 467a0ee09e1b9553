/**
 * The prompts and runs that wait for a session's compaction review (ask mode), apart from the
 * hooks so the composer can let them go (Confirm, Skip and send) without loading the hooks. One
 * queue per tab, made by the app's composition (services/app/app-services.ts) and passed to who
 * waits and who releases; tests make their own.
 */
import type { SessionEntry } from "../../core/session/types.ts";

/** What a wait ended with: the path to go on from (undefined: as it was), or a Stop. */
export const WAIT_CANCELLED = "cancelled" as const;

export interface ReviewQueue {
  /** Hears every decided review (Confirm or Skip), e.g. to send a prompt that waited across a reload. */
  onDecided(listener: (sessionId: string) => void): () => void;
  /** Hears how many prompts wait for a session's review (shown by the hooks' UI). */
  onWaitingCount(show: (sessionId: string, count: number) => void): () => void;
  /** Lets what waits behind a review go: with the compacted path, or as it was (Skip). */
  release(sessionId: string, path: SessionEntry[] | undefined): void;
  /**
   * Waits for the review of `sessionId` to be confirmed (the new path) or skipped (undefined); an
   * aborted `signal` (Stop) ends the wait with WAIT_CANCELLED.
   */
  waitFor(
    sessionId: string,
    signal?: AbortSignal,
  ): Promise<SessionEntry[] | undefined | typeof WAIT_CANCELLED>;
  /** True once after a Skip: the next check lets the prompt go without asking again. */
  takeSkip(sessionId: string): boolean;
}

type Waiter = (path: SessionEntry[] | undefined) => void;

export function createReviewQueue(): ReviewQueue {
  const waiting = new Map<string, Waiter[]>();
  const skipped = new Set<string>();
  const counters = new Set<(sessionId: string, count: number) => void>();
  const decided = new Set<(sessionId: string) => void>();
  const count = (sessionId: string, n: number) => {
    for (const show of counters) show(sessionId, n);
  };

  return {
    onDecided(listener) {
      decided.add(listener);
      return () => decided.delete(listener);
    },
    onWaitingCount(show) {
      counters.add(show);
      return () => counters.delete(show);
    },
    release(sessionId, path) {
      const list = waiting.get(sessionId) ?? [];
      waiting.delete(sessionId);
      if (!path) skipped.add(sessionId);
      count(sessionId, 0);
      for (const w of list) w(path);
      for (const l of decided) l(sessionId);
    },
    waitFor(sessionId, signal) {
      return new Promise((resolve) => {
        if (signal?.aborted) return resolve(WAIT_CANCELLED);
        const list = waiting.get(sessionId) ?? [];
        const waiter: Waiter = (path) => {
          signal?.removeEventListener("abort", cancel);
          resolve(path);
        };
        const cancel = () => {
          const rest = (waiting.get(sessionId) ?? []).filter((w) => w !== waiter);
          if (rest.length > 0) waiting.set(sessionId, rest);
          else waiting.delete(sessionId);
          count(sessionId, rest.length);
          resolve(WAIT_CANCELLED);
        };
        signal?.addEventListener("abort", cancel, { once: true });
        list.push(waiter);
        waiting.set(sessionId, list);
        count(sessionId, list.length);
      });
    },
    takeSkip(sessionId) {
      return skipped.delete(sessionId);
    },
  };
}
