/**
 * What a device uploads of a session (pure). Entries that only say where this device's position
 * is (moves, `leaf` entries) stay here until something it uploads hangs below one of them: the
 * position stays each device's own, and a device that merged another's entries and moved back
 * to where it was does not make the other device move in turn.
 */
import { isPositionMarker } from "../session/moves.ts";
import type { SessionEntry } from "../session/types.ts";

/** What the plan needs of an entry (a big session is planned from these, its entries not held). */
export interface PlanItem {
  id: string;
  parentId: string | null;
  /** A position marker (isPositionMarker). */
  marker: boolean;
}

export const planItem = (e: SessionEntry): PlanItem => ({
  id: e.id,
  parentId: e.parentId,
  marker: isPositionMarker(e),
});

export interface PushPlan<T = SessionEntry> {
  /** To upload: the markers kept back before first, then the fresh ones, in file order. */
  send: T[];
  /** Position markers kept back (nothing below them is uploaded yet). */
  held: T[];
}

/** `held`: markers kept back before; `fresh`: this device's entries not on the target yet, in file order. */
export function planPushItems<T extends PlanItem>(held: readonly T[], fresh: readonly T[]): PushPlan<T> {
  const seen = new Set<string>();
  const all: T[] = [];
  for (const e of [...held, ...fresh]) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    all.push(e);
  }
  const needed = new Set<string>();
  const sent = new Set<string>();
  for (let i = all.length - 1; i >= 0; i--) {
    const e = all[i]!;
    if (e.marker && !needed.has(e.id)) continue;
    sent.add(e.id);
    if (e.parentId !== null) needed.add(e.parentId);
  }
  return { send: all.filter((e) => sent.has(e.id)), held: all.filter((e) => !sent.has(e.id)) };
}

/** `planPushItems` of whole entries. */
export function planPush(held: readonly SessionEntry[], fresh: readonly SessionEntry[]): PushPlan {
  const items = (list: readonly SessionEntry[]) => list.map((entry) => ({ ...planItem(entry), entry }));
  const plan = planPushItems(items(held), items(fresh));
  return { send: plan.send.map((i) => i.entry), held: plan.held.map((i) => i.entry) };
}

/** Entries that count as waiting to be uploaded (a kept-back marker does not). */
export function waitingCount(fresh: readonly PlanItem[]): number {
  return fresh.filter((e) => !e.marker).length;
}
