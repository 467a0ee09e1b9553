/**
 * Entries already in memory for a stored session, so that opening it does not read its chunks
 * back and parse them again. One owner per tab (`createSessionHandover`, made by the app's
 * composition, services/app/app-services.ts), passed to the import, the loader and the delete:
 * - offered by the import, which parsed them, after the store (services/import/import-service.ts):
 *   `loadSession` takes them when the row it reads is the one stored (same generation and last
 *   chunk), else they are dropped; an offer nobody takes is dropped after HANDOVER_TTL_MS;
 * - kept by the session view for the sessions open or left in this page (`keep`), the most
 *   recent ones up to KEEP_BYTES of session files in all: going back to one takes them (same
 *   generation; the chunks appended since, in another tab, are read after them), so that
 *   switching back to a big session reads and parses nothing. Entries are append-only within a
 *   generation, so what is kept is always a true prefix of what is stored.
 * Also what this page knows of the token counts stored beside the chunks (`noteCountsStored`):
 * for entries taken from memory the loader reads no counts, and without this it could not tell
 * whether they were stored, so every switch back re-read the chunks to store them again.
 */
import { PREVIEW_ENTRIES } from "../../core/session/tail-preview.ts";
import type { SessionEntry, SessionHeader } from "../../core/session/types.ts";

export const HANDOVER_TTL_MS = 15_000;
/** Session files (bytes) whose entries are kept in all, at most, and how many sessions. */
export const KEEP_BYTES = 128 * 1024 * 1024;
export const KEEP_SESSIONS = 4;

/** A stored state of a session: chunks 1..lastSeq of generation. */
export interface StoredState {
  id: string;
  generation: number;
  lastSeq: number;
}

export interface SessionHandover {
  /** Offers the entries of the stored `row`, in file order (one offer per session: a newer one replaces it). */
  offer(row: StoredState & { header?: SessionHeader }, entries: SessionEntry[], ttlMs?: number): void;
  /**
   * The newest PREVIEW_ENTRIES of `entries`, or undefined when that would be all of them; the same
   * array for the same entries (the view's first preview and the loader's, so that the timeline
   * model of those rows is built once).
   */
  newestEntries(entries: SessionEntry[]): SessionEntry[] | undefined;
  /**
   * The newest of the entries offered for a session, without taking them: what its view shows at
   * once, before its row is read (display only; the loader still takes the offer). Undefined when
   * nothing with a header is offered, or the offer is small enough to load at once.
   */
  peekNewest(
    sessionId: string,
  ): { header: SessionHeader; generation: number; lastSeq: number; entries: SessionEntry[] } | undefined;
  /**
   * Keeps the entries of a session as loaded (`entries` are chunks 1..`lastSeq` of `generation`,
   * nothing pending), `bytes` its stored size: the most recent last, the oldest dropped beyond
   * KEEP_BYTES or KEEP_SESSIONS (a session bigger than KEEP_BYTES is not kept at all).
   */
  keep(loaded: StoredState & { entries: SessionEntry[] }, bytes: number): void;
  /**
   * The entries in memory for this stored state of the session, or undefined: an import's offer for
   * exactly this state (taken once), else what was kept of this generation (`lastSeq` may be lower
   * than the row's: the chunks after it are to be read). What no longer matches is dropped.
   */
  take(row: StoredState): { entries: SessionEntry[]; lastSeq: number } | undefined;
  /** Notes that chunks 1..`through` of the session's `generation` have their token counts stored. */
  noteCountsStored(sessionId: string, generation: number, through: number): void;
  /** Up to which chunk of `generation` the session's token counts are known to be stored (0: none known). */
  countsStoredThrough(sessionId: string, generation: number): number;
  /** Drops what is kept or offered for a session, and what is known of its counts (it was deleted). */
  forget(sessionId: string): void;
  /** Ids of the sessions whose entries are kept, the least recent first (for tests). */
  keptSessionIds(): string[];
}

interface Offer {
  generation: number;
  lastSeq: number;
  header: SessionHeader | undefined;
  entries: SessionEntry[];
  timer: ReturnType<typeof setTimeout>;
}

interface Kept {
  generation: number;
  lastSeq: number;
  entries: SessionEntry[];
  bytes: number;
}

export function createSessionHandover(): SessionHandover {
  const offers = new Map<string, Offer>();
  const newest = new WeakMap<SessionEntry[], SessionEntry[]>();
  /** Kept entries by session id, the least recently kept first. */
  const kept = new Map<string, Kept>();
  /** Chunks 1..`through` of `generation` have stored token counts that match their entries. */
  const countsStored = new Map<string, { generation: number; through: number }>();

  const drop = (sessionId: string) => {
    const offer = offers.get(sessionId);
    if (!offer) return;
    offers.delete(sessionId);
    clearTimeout(offer.timer);
  };
  const newestEntries = (entries: SessionEntry[]) => {
    if (entries.length <= PREVIEW_ENTRIES) return undefined;
    let tail = newest.get(entries);
    if (!tail) {
      tail = entries.slice(-PREVIEW_ENTRIES);
      newest.set(entries, tail);
    }
    return tail;
  };

  return {
    offer(row, entries, ttlMs = HANDOVER_TTL_MS) {
      drop(row.id);
      const timer = setTimeout(() => drop(row.id), ttlMs);
      offers.set(row.id, {
        generation: row.generation,
        lastSeq: row.lastSeq,
        header: row.header,
        entries,
        timer,
      });
    },
    newestEntries,
    peekNewest(sessionId) {
      const offer = offers.get(sessionId);
      const entries = offer?.header && newestEntries(offer.entries);
      if (!offer?.header || !entries) return undefined;
      return { header: offer.header, generation: offer.generation, lastSeq: offer.lastSeq, entries };
    },
    keep(loaded, bytes) {
      kept.delete(loaded.id);
      kept.set(loaded.id, {
        generation: loaded.generation,
        lastSeq: loaded.lastSeq,
        entries: loaded.entries,
        bytes,
      });
      let total = 0;
      for (const k of kept.values()) total += k.bytes;
      for (const [id, k] of kept) {
        if (total <= KEEP_BYTES && kept.size <= KEEP_SESSIONS) break;
        kept.delete(id);
        total -= k.bytes;
      }
    },
    take(row) {
      const offer = offers.get(row.id);
      drop(row.id);
      if (offer && offer.generation === row.generation && offer.lastSeq === row.lastSeq)
        return { entries: offer.entries, lastSeq: offer.lastSeq };
      const k = kept.get(row.id);
      if (k && k.generation === row.generation && k.lastSeq <= row.lastSeq)
        return { entries: k.entries, lastSeq: k.lastSeq };
      kept.delete(row.id);
      return undefined;
    },
    noteCountsStored(sessionId, generation, through) {
      const known = countsStored.get(sessionId);
      if (known && known.generation === generation && known.through >= through) return;
      countsStored.set(sessionId, { generation, through });
    },
    countsStoredThrough(sessionId, generation) {
      const known = countsStored.get(sessionId);
      return known && known.generation === generation ? known.through : 0;
    },
    forget(sessionId) {
      drop(sessionId);
      kept.delete(sessionId);
      countsStored.delete(sessionId);
    },
    keptSessionIds: () => [...kept.keys()],
  };
}
