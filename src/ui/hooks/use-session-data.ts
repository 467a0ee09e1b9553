/**
 * The open session in memory: metadata row (watched) + all entries, loaded once and then
 * extended incrementally when other code (or another tab) appends entries. The open itself
 * (preview, outline, whole, then the counts stored) is a service this hook subscribes to
 * (services/session/session-open.ts); here each phase is shown and said to be on screen.
 */
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { flushSync } from "react-dom";
import type { LoadedSession, OutlinedSession } from "../../services/session/loaded-session.ts";
import type { SessionRow } from "../../services/session/session-open.ts";
import { sessionPath } from "../tree/tree-model.ts";
import { useAppServices } from "./app-services.tsx";
import { type Held, heldAppended, heldShow, heldWithdraw, shownEntries } from "./pending-entries.ts";
import { warmPathModels, warmViews } from "./warm-session.ts";

export interface SessionData {
  /** undefined while the live query starts; null when the session does not exist. */
  row: SessionRow | null | undefined;
  /** ALL entries, once loaded (may lag `row` briefly while new chunks load). */
  loaded: LoadedSession | undefined;
  /** While a big session loads: its newest entries only, for display. Never plan from it. */
  preview: LoadedSession | undefined;
  /**
   * While a session stored with outlines loads its messages' bodies: every entry, some without
   * their body (`awaiting`), for display only. Never plan from it.
   */
  outline: OutlinedSession | undefined;
  /** 0..1 while the first load runs (1: read, the models are being built), undefined otherwise. */
  loading: number | undefined;
}

/** Resolves after the next frame has been painted (a task queued from requestAnimationFrame). */
const afterNextPaint = (): Promise<void> =>
  new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** When the render of each fully loaded session began (for the "render-whole" measure). */
const renderStarted = new WeakMap<object, number>();
/** The path warmers start this long after the load at the latest. */
const SHOWN_FALLBACK_MS = 2000;

export function useSessionData(sessionId: string | undefined): SessionData {
  const { sessions, pending } = useAppServices();
  // The row of this session (a row heard for the session before is not this one's).
  const [heard, setHeard] = useState<{ id: string; row: SessionRow | null } | undefined>(undefined);
  useEffect(() => {
    if (!sessionId) return;
    return sessions.watchRow(sessionId, (row) => setHeard({ id: sessionId, row }));
  }, [sessionId, sessions]);
  const row = !sessionId ? null : heard?.id === sessionId ? heard.row : undefined;
  const [held, setHeld] = useState<Held>({ loaded: undefined, pending: [] });
  const loaded = held.loaded;
  const setLoaded = useCallback(
    (next: LoadedSession | undefined) => setHeld((h) => ({ ...h, loaded: next })),
    [],
  );
  // Just imported: its newest entries at once, before the row is read (display only).
  const [preview, setPreview] = useState<LoadedSession | undefined>(() =>
    sessionId ? sessions.peekNewest(sessionId) : undefined,
  );
  const [outline, setOutline] = useState<OutlinedSession | undefined>(undefined);
  const [loading, setLoading] = useState<number | undefined>(undefined);
  /** Resolves the wait of the load once the outline's render is on screen. */
  const onOutlineShown = useRef<(() => void) | undefined>(undefined);
  /** Resolves the wait of the path warmers once the whole session's render is on screen. */
  const onShown = useRef<(() => void) | undefined>(undefined);
  const generation = row?.generation;
  const lastSeq = row?.lastSeq;

  // Full load: when the session or its generation (a re-import "replace") changes. Metadata
  // updates (appends, renames) never restart it, so a busy session cannot starve the load.
  useEffect(() => {
    if (!sessionId || generation === undefined) return;
    const controller = new AbortController();
    const signal = controller.signal;
    const started = performance.now();
    setLoading(0);
    setOutline(undefined);
    sessions
      .open(
        sessionId,
        {
          progress: (f) => setLoading(f),
          preview: (p) => {
            setPreview(p);
            return afterNextPaint();
          },
          // The whole session, its messages' bodies still to read: its views are built, then it
          // is shown (in a transition, as the whole session below), and the bodies are read once
          // that render is painted.
          outline: async (o) => {
            await warmViews(o.entries, signal);
            if (signal.aborted) return;
            performance.measure("cutpoint:session-outline", { start: started });
            const shown = new Promise<void>((resolve) => {
              onOutlineShown.current = resolve;
              setTimeout(resolve, SHOWN_FALLBACK_MS);
            });
            startTransition(() => {
              setOutline(o);
              setPreview(undefined);
            });
            await shown;
          },
          whole: async (next) => {
            performance.measure("cutpoint:session-load", { start: started });
            // Read whole: what is left is building the views' models (the status says so).
            setLoading(1);
            if (next) await warmViews(next.entries, signal);
            if (signal.aborted) return;
            renderStarted.set(next ?? {}, performance.now());
            // The models other views build from the path (the meter's) come next, in tasks of
            // their own, once the whole session is on screen: until then those views say they
            // are counting. The service stores the counts made while it was read after them.
            let warmed: Promise<unknown> | undefined;
            if (next) {
              const shown = new Promise<void>((resolve) => {
                onShown.current = resolve;
                // In case that render never commits as such (an append replaced it first).
                setTimeout(resolve, SHOWN_FALLBACK_MS);
              });
              warmed = warmPathModels(next.id, sessionPath(next.entries), signal, shown);
            }
            // A transition: the views derived from all entries (timeline, tree) render in
            // separate tasks, and the preview stays on screen until they are ready.
            startTransition(() => {
              setLoaded(next);
              setPreview(undefined);
              setOutline(undefined);
              setLoading(undefined);
            });
            await warmed;
          },
        },
        signal,
      )
      .catch((e) => console.error("loading the session failed", e));
    return () => controller.abort();
  }, [sessionId, generation, setLoaded, sessions]);

  // What is loaded stays in memory for a switch back to this session (taken by the loader as
  // long as it is what is stored, services/session/session-handover.ts).
  const byteSize = row?.id === loaded?.id ? row?.byteSize : undefined;
  useEffect(() => {
    if (loaded && byteSize !== undefined && loaded.generation === generation) sessions.keep(loaded, byteSize);
  }, [loaded, byteSize, generation, sessions]);

  // The outline's render, once painted: the load reads the bodies next.
  useEffect(() => {
    const shown = onOutlineShown.current;
    if (!outline || !shown) return;
    onOutlineShown.current = undefined;
    void afterNextPaint().then(shown);
  }, [outline]);

  // The render that shows the whole session, as a measure (the storage bench reports it).
  useEffect(() => {
    if (loaded) {
      // After that render is painted: the warmers' tasks must not hold the frame back.
      const shown = onShown.current;
      onShown.current = undefined;
      if (shown) void afterNextPaint().then(shown);
    }
    const start = loaded && renderStarted.get(loaded);
    if (start === undefined) return;
    renderStarted.delete(loaded!);
    performance.measure("cutpoint:render-whole", { start });
  }, [loaded]);

  // Appended in this page (a leaf move, a message): extend what is loaded at once, without
  // waiting for the live query and reading the new chunk back; a pending batch (shown before its
  // write) becomes stored. Rendered synchronously in the transaction's "complete" event, so that
  // what the code awaiting the append does next (a toast, focus) lands in the same frame.
  useEffect(() => {
    const stopAppended = sessions.onAppended((appended) =>
      flushSync(() => setHeld((h) => heldAppended(h, appended))),
    );
    const stopPending = pending.on((event) =>
      setHeld((h) => (event.kind === "show" ? heldShow(h, event.batch) : heldWithdraw(h, event.token))),
    );
    return () => {
      stopAppended();
      stopPending();
    };
  }, [sessions, pending]);

  // Incremental: chunks appended after what is loaded (in another tab, or missed above).
  useEffect(() => {
    if (!loaded || loaded.id !== sessionId || lastSeq === undefined) return;
    if (loaded.generation !== generation || loaded.lastSeq >= lastSeq) return;
    let cancelled = false;
    sessions
      .loadNew(loaded)
      .then((next) => {
        if (!cancelled && next !== loaded) setLoaded(next);
      })
      .catch((e) => console.error("loading new entries failed", e));
    return () => {
      cancelled = true;
    };
  }, [loaded, sessionId, generation, lastSeq, setLoaded, sessions]);

  // What is shown: the stored entries and, after them, those whose write has not committed yet.
  const shown = useMemo(() => {
    const entries = shownEntries(held);
    return held.loaded && entries && entries !== held.loaded.entries
      ? { ...held.loaded, entries }
      : held.loaded;
  }, [held]);
  const mine = (l: LoadedSession | undefined) =>
    l && l.id === sessionId && l.generation === generation ? l : undefined;
  // A preview may show before the row is read (an import's handed entries); never after another generation.
  const shownPreview =
    preview && generation === undefined && row === undefined && preview.id === sessionId
      ? preview
      : mine(preview);
  const shownOutline = mine(shown) ? undefined : mine(outline);
  return {
    row,
    loaded: mine(shown),
    outline: shownOutline as OutlinedSession | undefined,
    preview: mine(shown) || shownOutline ? undefined : shownPreview,
    loading,
  };
}
