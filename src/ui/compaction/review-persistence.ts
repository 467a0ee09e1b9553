/**
 * Keeps a session's review across reloads: reads the saved draft (focus, keep-recent, cut,
 * summarizer, open state) into the store once per session, then saves this session's changes to
 * storage a moment after they happen (services/compaction/compaction-drafts.ts; never the session file).
 */
import { useEffect } from "react";
import type { SavedReview } from "../../services/compaction/compaction-drafts.ts";
import { type SessionCompaction, sessionState, useCompactionStore } from "../../store/compaction-store.ts";
import { useAppServices } from "../hooks/app-services.tsx";

const SAVE_DELAY_MS = 250;

function savedOf(s: SessionCompaction): SavedReview {
  // A draft still streaming is saved as what the last complete draft was (or nothing).
  const generating = s.status === "generating";
  const snap = generating ? s.previous : s;
  const ready = generating ? snap !== null : s.status === "ready";
  return {
    draft: ready && snap ? snap.draft : "",
    draftSource: ready && snap ? snap.draftSource : null,
    draftTarget: ready && snap ? snap.draftTarget : null,
    undoneFrom: ready && snap ? snap.undoneFrom : null,
    ...(ready && snap?.draftIncomplete ? { draftIncomplete: true } : {}),
    focus: s.focus,
    keepRecentOverride: s.keepRecentOverride,
    cutEntryId: s.cutEntryId,
    ...(s.cutRestored ? { cutRestored: true } : {}),
    summarizerModel: s.summarizerModel,
    previewOpen: s.previewOpen,
    coverageDismissed: [...s.coverageDismissed],
  };
}

/** Restores then saves the review of `sessionId` (mounted once per open session). */
export function useReviewPersistence(sessionId: string): void {
  const { loadReview, saveReview } = useAppServices().compaction;
  useEffect(() => {
    let live = true;
    const store = useCompactionStore;
    if (!store.getState().hydrated[sessionId]) {
      void loadReview(sessionId).then((saved) => {
        if (!live) return;
        store
          .getState()
          .hydrate(sessionId, saved ? { ...saved, status: saved.draft ? "ready" : "idle" } : undefined);
      });
    }
    let last = JSON.stringify(savedOf(sessionState(store.getState(), sessionId)));
    let timer: number | undefined;
    const unsubscribe = store.subscribe((st) => {
      if (!st.hydrated[sessionId]) return;
      const next = savedOf(sessionState(st, sessionId));
      const text = JSON.stringify(next);
      if (text === last) return;
      last = text;
      window.clearTimeout(timer);
      timer = window.setTimeout(() => void saveReview(sessionId, next), SAVE_DELAY_MS);
    });
    return () => {
      live = false;
      unsubscribe();
      if (timer !== undefined) {
        window.clearTimeout(timer);
        void saveReview(sessionId, savedOf(sessionState(store.getState(), sessionId)));
      }
    };
  }, [sessionId, loadReview, saveReview]);
}
