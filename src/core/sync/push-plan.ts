/**
 * What a device uploads of a session (pure). Entries that only say where this device's position
 * is (moves, `leaf` entries) stay here until something it uploads hangs below one of them: the
 * position stays each device's own, and a device that merged another's entries and moved back
 * to where it was does not make the other device move in turn.
 */
import { isPositionMarker } from "../session/moves.ts";
import { runSteps, type Steps } from "../session/steps.ts";
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

/** Items handled per step of `planPushItemsSteps`. */
const ITEMS_PER_STEP = 4096;

/** `held`: markers kept back before; `fresh`: this device's entries not on the target yet, in file order. */
export function planPushItems<T extends PlanItem>(held: readonly T[], fresh: readonly T[]): PushPlan<T> {
  return runSteps(planPushItemsSteps(held, fresh));
}

/** `planPushItems` a few thousand items per step (a first upload of a big session). */
export function* planPushItemsSteps<T extends PlanItem>(
  held: readonly T[],
  fresh: readonly T[],
): Steps<PushPlan<T>> {
  const seen = new Set<string>();
  const all: T[] = [];
  let n = 0;
  for (const list of [held, fresh])
    for (const e of list) {
      if (++n % ITEMS_PER_STEP === 0) yield;
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      all.push(e);
    }
  const needed = new Set<string>();
  const sent = new Set<string>();
  for (let i = all.length - 1; i >= 0; i--) {
    if (++n % ITEMS_PER_STEP === 0) yield;
    const e = all[i]!;
    if (e.marker && !needed.has(e.id)) continue;
    sent.add(e.id);
    if (e.parentId !== null) needed.add(e.parentId);
  }
  const plan: PushPlan<T> = { send: [], held: [] };
  for (const e of all) {
    if (++n % ITEMS_PER_STEP === 0) yield;
    (sent.has(e.id) ? plan.send : plan.held).push(e);
  }
  return plan;
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
