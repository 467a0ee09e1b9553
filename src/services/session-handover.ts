/**
 * Entries handed over for a session that was just stored, so that opening it does not read its
 * chunks back and parse them again: the import parsed them already and offers them here after
 * the store (services/import-service.ts); `loadSession` takes them when the row it reads is the
 * one stored (same generation and last chunk), else they are dropped. An offer nobody takes is
 * dropped after HANDOVER_TTL_MS (the entries are not kept in memory for nothing).
 */
import type { SessionEntry } from "../core/session/types.ts";

interface Offer {
  generation: number;
  lastSeq: number;
  entries: SessionEntry[];
  timer: ReturnType<typeof setTimeout>;
}

export const HANDOVER_TTL_MS = 15_000;

const offers = new Map<string, Offer>();

function drop(sessionId: string): void {
  const offer = offers.get(sessionId);
  if (!offer) return;
  offers.delete(sessionId);
  clearTimeout(offer.timer);
}

/** Offers the entries of the stored `row`, in file order (one offer per session: a newer one replaces it). */
export function offerEntries(
  row: { id: string; generation: number; lastSeq: number },
  entries: SessionEntry[],
  ttlMs = HANDOVER_TTL_MS,
): void {
  drop(row.id);
  const timer = setTimeout(() => drop(row.id), ttlMs);
  offers.set(row.id, { generation: row.generation, lastSeq: row.lastSeq, entries, timer });
}

/** The entries offered for exactly this stored state of the session (taken once), or undefined. */
export function takeEntries(row: {
  id: string;
  generation: number;
  lastSeq: number;
}): SessionEntry[] | undefined {
  const offer = offers.get(row.id);
  drop(row.id);
  if (!offer || offer.generation !== row.generation || offer.lastSeq !== row.lastSeq) return undefined;
  return offer.entries;
}
