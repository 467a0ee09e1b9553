/**
 * The open session in memory: metadata row (live query) + all entries, loaded once and then
 * extended incrementally when other code (or another tab) appends entries.
 */
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState } from "react";
import { db } from "../../db/instance.ts";
import type { SessionRow } from "../../db/schema.ts";
import { type LoadedSession, loadNewEntries, loadSession } from "../../services/session-loader.ts";

export interface SessionData {
  /** undefined while the live query starts; null when the session does not exist. */
  row: SessionRow | null | undefined;
  /** The entries, once loaded (may lag `row` briefly while new chunks load). */
  loaded: LoadedSession | undefined;
  /** 0..1 while the first load runs, undefined otherwise. */
  loading: number | undefined;
}

export function useSessionData(sessionId: string | undefined): SessionData {
  const row = useLiveQuery(
    async () => {
      if (!sessionId) return null;
      const r = await db.sessions.get(sessionId);
      return r && !r.deletedAt ? r : null;
    },
    [sessionId],
    undefined,
  );
  const [loaded, setLoaded] = useState<LoadedSession | undefined>(undefined);
  const [loading, setLoading] = useState<number | undefined>(undefined);

  // Drop what belongs to another session.
  useEffect(() => {
    setLoaded((l) => (l && l.id === sessionId ? l : undefined));
  }, [sessionId]);

  useEffect(() => {
    if (!row || !sessionId || row.id !== sessionId) return;
    const current = loaded && loaded.id === sessionId ? loaded : undefined;
    if (current && current.generation === row.generation && current.lastSeq >= row.lastSeq) return;
    const controller = new AbortController();
    const run = async () => {
      if (current && current.generation === row.generation) {
        const next = await loadNewEntries(db, current);
        if (!controller.signal.aborted) setLoaded(next);
      } else {
        setLoading(0);
        const next = await loadSession(db, sessionId, (f) => setLoading(f), controller.signal);
        if (!controller.signal.aborted) {
          setLoaded(next);
          setLoading(undefined);
        }
      }
    };
    run().catch((e) => console.error("loading the session failed", e));
    return () => controller.abort();
  }, [row, sessionId, loaded]);

  return { row, loaded: loaded && loaded.id === sessionId ? loaded : undefined, loading };
}
