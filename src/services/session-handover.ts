/**
 * Entries handed over for a session that was just stored, so that opening it does not read its
 * chunks back and parse them again: the import parsed them already and offers them here after
 * the store (services/import-service.ts); `loadSession` takes them when the row it reads is the
 * one stored (same generation and last chunk), else they are dropped. An offer nobody takes is
 * dropped after HANDOVER_TTL_MS (the entries are not kept in memory for nothing).
 */
import { PREVIEW_ENTRIES } from "../core/session/tail-preview.ts";
import type { SessionEntry, SessionHeader } from "../core/session/types.ts";

interface Offer {
  generation: number;
  lastSeq: number;
  header: SessionHeader | undefined;
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
  row: { id: string; generation: number; lastSeq: number; header?: SessionHeader },
  entries: SessionEntry[],
  ttlMs = HANDOVER_TTL_MS,
): void {
  drop(row.id);
  const timer = setTimeout(() => drop(row.id), ttlMs);
  offers.set(row.id, {
    generation: row.generation,
    lastSeq: row.lastSeq,
    header: row.header,
    entries,
    timer,
  });
}

const newest = new WeakMap<SessionEntry[], SessionEntry[]>();

/**
 * The newest PREVIEW_ENTRIES of `entries`, or undefined when that would be all of them; the same
 * array for the same entries (the view's first preview and the loader's, so that the timeline
 * model of those rows is built once).
 */
export function newestEntries(entries: SessionEntry[]): SessionEntry[] | undefined {
  if (entries.length <= PREVIEW_ENTRIES) return undefined;
  let tail = newest.get(entries);
  if (!tail) {
    tail = entries.slice(-PREVIEW_ENTRIES);
    newest.set(entries, tail);
  }
  return tail;
}

/**
 * The newest of the entries offered for a session, without taking them: what its view shows at
 * once, before its row is read (display only; the loader still takes the offer). Undefined when
 * nothing with a header is offered, or the offer is small enough to load at once.
 */
export function peekNewest(
  sessionId: string,
): { header: SessionHeader; generation: number; lastSeq: number; entries: SessionEntry[] } | undefined {
  const offer = offers.get(sessionId);
  const entries = offer?.header && newestEntries(offer.entries);
  if (!offer?.header || !entries) return undefined;
  return { header: offer.header, generation: offer.generation, lastSeq: offer.lastSeq, entries };
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
