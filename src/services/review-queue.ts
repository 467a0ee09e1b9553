/**
 * The prompts and runs that wait for a session's compaction review (ask mode), apart from the
 * hooks so the composer can let them go (Confirm, Skip and send) without loading the hooks.
 */
import type { SessionEntry } from "../core/session/types.ts";

type Waiter = (path: SessionEntry[] | undefined) => void;
const waiting = new Map<string, Waiter[]>();
const skipped = new Set<string>();
let onCount: ((sessionId: string, count: number) => void) | undefined;

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
}

/** Waits for the review of `sessionId` to be confirmed (the new path) or skipped (undefined). */
export function waitForReview(sessionId: string): Promise<SessionEntry[] | undefined> {
  return new Promise((resolve) => {
    const list = waiting.get(sessionId) ?? [];
    list.push(resolve);
    waiting.set(sessionId, list);
    onCount?.(sessionId, list.length);
  });
}

/** True once after a Skip: the next check lets the prompt go without asking again. */
export function takeSkip(sessionId: string): boolean {
  return skipped.delete(sessionId);
}
