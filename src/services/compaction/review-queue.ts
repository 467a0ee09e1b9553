/**
 * The prompts and runs that wait for a session's compaction review (ask mode), apart from the
 * hooks so the composer can let them go (Confirm, Skip and send) without loading the hooks.
 */
import type { SessionEntry } from "../../core/session/types.ts";

type Waiter = (path: SessionEntry[] | undefined) => void;
const waiting = new Map<string, Waiter[]>();
const skipped = new Set<string>();
let onCount: ((sessionId: string, count: number) => void) | undefined;
const released = new Set<(sessionId: string) => void>();

/** What a wait ended with: the path to go on from (undefined: as it was), or a Stop. */
export const WAIT_CANCELLED = "cancelled" as const;

/** Hears every decided review (Confirm or Skip), e.g. to send a prompt that waited across a reload. */
export function onReviewDecided(listener: (sessionId: string) => void): () => void {
  released.add(listener);
  return () => released.delete(listener);
}

/** Where the number of waiting prompts is shown (set by the hooks with their UI). */
export function onWaitingCount(show: (sessionId: string, count: number) => void): void {
  onCount = show;
}

/** Lets what waits behind a review go: with the compacted path, or as it was (Skip). */
export function releaseQueuedPrompts(sessionId: string, path: SessionEntry[] | undefined): void {
  const list = waiting.get(sessionId) ?? [];
  waiting.delete(sessionId);
  if (!path) skipped.add(sessionId);
  onCount?.(sessionId, 0);
  for (const w of list) w(path);
  for (const l of released) l(sessionId);
}

/**
 * Waits for the review of `sessionId` to be confirmed (the new path) or skipped (undefined); an
 * aborted `signal` (Stop) ends the wait with WAIT_CANCELLED.
 */
export function waitForReview(
  sessionId: string,
  signal?: AbortSignal,
): Promise<SessionEntry[] | undefined | typeof WAIT_CANCELLED> {
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
      onCount?.(sessionId, rest.length);
      resolve(WAIT_CANCELLED);
    };
    signal?.addEventListener("abort", cancel, { once: true });
    list.push(waiter);
    waiting.set(sessionId, list);
    onCount?.(sessionId, list.length);
  });
}

/** True once after a Skip: the next check lets the prompt go without asking again. */
export function takeSkip(sessionId: string): boolean {
  return skipped.delete(sessionId);
}
