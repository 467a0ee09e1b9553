/**
 * What a device uploads of a session (pure). Entries that only say where this device's position
 * is (moves, `leaf` entries) stay here until something it uploads hangs below one of them: the
 * position stays each device's own, and a device that merged another's entries and moved back
 * to where it was does not make the other device move in turn.
 */
import { isPositionMarker } from "../session/moves.ts";
import type { SessionEntry } from "../session/types.ts";

export interface PushPlan {
  /** To upload, in file order. */
  send: SessionEntry[];
  /** Position markers kept back (nothing below them is uploaded yet). */
  held: SessionEntry[];
}

/** `held`: markers kept back before; `fresh`: this device's entries not on the target yet, in file order. */
export function planPush(held: readonly SessionEntry[], fresh: readonly SessionEntry[]): PushPlan {
  const seen = new Set<string>();
  const all: SessionEntry[] = [];
  for (const e of [...held, ...fresh]) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    all.push(e);
  }
  const needed = new Set<string>();
  const sent = new Set<string>();
  for (let i = all.length - 1; i >= 0; i--) {
    const e = all[i]!;
    if (isPositionMarker(e) && !needed.has(e.id)) continue;
    sent.add(e.id);
    if (e.parentId !== null) needed.add(e.parentId);
  }
  return { send: all.filter((e) => sent.has(e.id)), held: all.filter((e) => !sent.has(e.id)) };
}

/** Entries that count as waiting to be uploaded (a kept-back marker does not). */
export function waitingCount(fresh: readonly SessionEntry[]): number {
  return fresh.filter((e) => !isPositionMarker(e)).length;
}
