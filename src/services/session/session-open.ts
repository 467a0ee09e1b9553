/**
 * Opening a stored session, in the order a person sees it: its newest entries (preview), then
 * every entry with some bodies still to read (outline), then the whole session; after the view
 * has shown it, the token counts made while it was read are stored for the next open. The view
 * subscribes (`open` with a listener) and says when each phase is on screen; the row, the
 * appends and the entries kept for a switch back go through the same service.
 */
import { liveQuery } from "dexie";
import { type AppendedEntries, onEntriesAppended } from "../../db/index.ts";
import type { CutpointDb, SessionRow } from "../../db/schema.ts";
import type { LoadedSession, OutlinedSession } from "./loaded-session.ts";
import type { SessionHandover } from "./session-handover.ts";
import { loadNewEntries, loadSession } from "./session-loader.ts";
import { storeEstimates } from "./store-token-counts.ts";

export type { AppendedEntries, SessionRow };

/** What the view hears while a session opens; a returned promise holds the next phase until it resolves. */
export interface OpenListener {
  /** 0..1 while the session is read. */
  progress(fraction: number): void;
  /** The newest entries, for display only; the rest is read once they are painted. */
  preview(preview: LoadedSession): Promise<void> | void;
  /** Every entry, some without their body, for display only; the bodies are read once it is shown. */
  outline(outline: OutlinedSession): Promise<void> | void;
  /**
   * The whole session (undefined: it does not exist). The view shows it; the counts are stored
   * once the returned promise resolves (the view's own work after showing it is done).
   */
  whole(session: LoadedSession | undefined): Promise<void> | void;
}

export interface SessionOpener {
  /** Hears the session's row (null: not there, or deleted) now and after every change, in any tab. */
  watchRow(sessionId: string, onRow: (row: SessionRow | null) => void): () => void;
  /** Opens the session: the phases in order, until `signal` aborts (then no more is heard). */
  open(sessionId: string, listener: OpenListener, signal: AbortSignal): Promise<void>;
  /** The chunks appended after what is loaded (in another tab, or not heard here). */
  loadNew(loaded: LoadedSession): Promise<LoadedSession>;
  /** Hears the entries appended in this page, as their transaction commits. */
  onAppended(listener: (appended: AppendedEntries) => void): () => void;
  /** Keeps what is loaded in memory for a switch back (services/session/session-handover.ts). */
  keep(loaded: LoadedSession, bytes: number): void;
  /** The newest entries an import offered for the session, shown before its row is read. */
  peekNewest(sessionId: string): LoadedSession | undefined;
}

export function createSessionOpener(deps: { db: CutpointDb; handover: SessionHandover }): SessionOpener {
  const { db, handover } = deps;
  return {
    watchRow(sessionId, onRow) {
      const sub = liveQuery(async () => {
        const r = await db.sessions.get(sessionId);
        return r && !r.deletedAt ? r : null;
      }).subscribe({
        next: onRow,
        error: (e: unknown) => console.error("reading the session failed", e),
      });
      return () => sub.unsubscribe();
    },
    open: (sessionId, listener, signal) => openSession(db, handover, sessionId, listener, signal),
    loadNew: (loaded) => loadNewEntries(db, loaded),
    onAppended: (listener) => onEntriesAppended(db, listener),
    keep: (loaded, bytes) => handover.keep(loaded, bytes),
    peekNewest(sessionId) {
      const handed = handover.peekNewest(sessionId);
      return handed && { id: sessionId, ...handed };
    },
  };
}

/** The phases of one open (see OpenListener); the counts stored last, when some chunk had none that matched. */
export async function openSession(
  db: CutpointDb,
  handover: SessionHandover,
  sessionId: string,
  listener: OpenListener,
  signal: AbortSignal,
): Promise<void> {
  const stats = { seeded: 0, unstored: 0 };
  const whole = await loadSession(db, sessionId, {
    stats,
    handover,
    signal,
    onProgress: (f) => listener.progress(f),
    // Shown before the rest is taken in: the entries handed over by an import are all there at
    // once, and taking them in would otherwise keep the preview from rendering at all.
    onPreview: (p) => (signal.aborted ? undefined : listener.preview(p)),
    onOutline: (o) => (signal.aborted ? undefined : listener.outline(o)),
  });
  if (signal.aborted) return;
  await listener.whole(whole);
  if (!whole || signal.aborted || stats.unstored === 0) return;
  const stored = await storeEstimates(db, whole, signal, handover);
  if (!stored.ok) console.warn("storing the token estimates failed", stored.error);
}
