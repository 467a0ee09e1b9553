/**
 * Holding a session's run: the tab takes the Web Lock "cutpoint-session-<id>" (exclusive, only if
 * free), marks the session row as run by it (src/db run-gate.ts) and keeps both for the whole
 * send: catching up, the model/prompt entries, the hooks, every turn. A tab that does not get the
 * lock writes nothing. `lockHeld` tells whether some tab holds a session's lock (for stale marks
 * and interrupted replies).
 */
import { type CutpointDb, clearRunMark, PAGE_ID, setRunMark } from "../../db/index.ts";

/** The part of the Web Locks API used here (navigator.locks by default). */
export interface LockManagerLike {
  request<T>(
    name: string,
    options: { ifAvailable: boolean },
    callback: (lock: unknown | null) => Promise<T>,
  ): Promise<T>;
}

export type LockQuery = () => Promise<{ held?: { name?: string }[] }>;

export const lockName = (sessionId: string) => `cutpoint-session-${sessionId}`;

export const RUNNING_ELSEWHERE =
  "This session is running in another tab or window. Stop it there, or wait for it to finish.";

type NavigatorLocks = { request?: unknown; query?: () => Promise<unknown> };
const navigatorLocks = (): NavigatorLocks | undefined =>
  (globalThis as { navigator?: { locks?: NavigatorLocks } }).navigator?.locks;

export function defaultLocks(): LockManagerLike | null {
  const locks = navigatorLocks();
  return locks?.request ? (locks as unknown as LockManagerLike) : null;
}

export function defaultLockQuery(): LockQuery | null {
  const locks = navigatorLocks();
  return locks?.query ? () => locks.query!() as ReturnType<LockQuery> : null;
}

/** Whether any tab holds the session's run lock (false without lock information). */
export async function lockHeld(query: LockQuery | null, sessionId: string): Promise<boolean> {
  if (!query) return false;
  try {
    const snapshot = await query();
    return (snapshot.held ?? []).some((l) => l.name === lockName(sessionId));
  } catch {
    return false;
  }
}

export type HeldRun<T> =
  | { ok: true; value: T }
  | { ok: false; reason: "running-elsewhere" | "storage"; message: string };

/** Runs `fn` holding the session's lock and run mark; refuses at once when another tab holds it. */
export async function withSessionRun<T>(
  deps: { db: CutpointDb; locks: LockManagerLike | null; owner?: string },
  sessionId: string,
  fn: (mark: string) => Promise<T>,
): Promise<HeldRun<T>> {
  const marked = async (): Promise<HeldRun<T>> => {
    const mark = await setRunMark(deps.db, sessionId, deps.owner ?? PAGE_ID);
    if (!mark.ok) return { ok: false, reason: "storage", message: mark.error.message };
    try {
      return { ok: true, value: await fn(mark.value) };
    } finally {
      await clearRunMark(deps.db, sessionId, mark.value);
    }
  };
  if (!deps.locks) return marked();
  return deps.locks.request(lockName(sessionId), { ifAvailable: true }, async (lock) =>
    lock === null ? { ok: false, reason: "running-elsewhere", message: RUNNING_ELSEWHERE } : marked(),
  );
}
