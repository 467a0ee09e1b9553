/**
 * Entries handed over for a session that was just stored, so that opening it does not read its
 * chunks back and parse them again: the import parsed them already and offers them here after
 * the store (services/import-service.ts); `loadSession` takes them when the row
 * it reads is the one stored (same generation and last chunk), else they are dropped. An offer
 * nobody takes is dropped after HANDOVER_TTL_MS (the entries are not kept in memory for nothing).
 */
import type { PartQueue } from "./part-queue.ts";

interface Offer {
  generation: number;
  lastSeq: number;
  parts: PartQueue;
  timer: ReturnType<typeof setTimeout>;
}

export const HANDOVER_TTL_MS = 15_000;

const offers = new Map<string, Offer>();

function drop(sessionId: string): void {
  const offer = offers.get(sessionId);
  if (!offer) return;
  offers.delete(sessionId);
  clearTimeout(offer.timer);
  offer.parts.stop();
}

/** Offers the entries of the stored `row` (one offer per session: a newer one replaces it). */
export function offerEntries(
  row: { id: string; generation: number; lastSeq: number },
  parts: PartQueue,
  ttlMs = HANDOVER_TTL_MS,
): void {
  drop(row.id);
  const timer = setTimeout(() => drop(row.id), ttlMs);
  offers.set(row.id, { generation: row.generation, lastSeq: row.lastSeq, parts, timer });
}

/** The entries offered for exactly this stored state of the session (taken once), or undefined. */
export function takeEntries(row: { id: string; generation: number; lastSeq: number }): PartQueue | undefined {
  const offer = offers.get(row.id);
  if (!offer) return undefined;
  if (offer.generation !== row.generation || offer.lastSeq !== row.lastSeq) {
    drop(row.id);
    return undefined;
  }
  offers.delete(row.id);
  clearTimeout(offer.timer);
  return offer.parts;
}
