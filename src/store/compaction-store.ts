/**
 * Transient state of the compaction UI, by session id: the review (open, cut, keep-recent, focus,
 * summarizer model, the draft summary and its status), the timeline's toggles, the prompts that
 * wait for the review, the last compaction (for Undo / Redo) and the session's banner. Nothing of
 * one session shows in another. The draft is also saved in Dexie by the UI (ui/compaction/
 * review-persistence.ts), so that it survives a reload; entries are written only on Confirm. An
 * undone compaction's summary comes back as the draft (when none is under way).
 */
import { create } from "zustand";
import type { DraftTarget, UndoneDraft } from "../services/compaction/compaction-drafts.ts";
import { useUiStore } from "./ui-store.ts";

export type PreviewStatus = "idle" | "generating" | "ready" | "failed" | "aborted" | "confirmed" | "undone";

export type { DraftTarget };

export interface LastCompaction {
  sessionId: string;
  entryId: string;
  tokensBefore: number;
  tokensAfter: number;
  auto: boolean;
}

export interface OpenPreviewOptions {
  focus?: string;
  /** Start generating at once (ask mode after a turn). */
  generate?: boolean;
  /** A sentence shown at the top of the preview (why it opened). */
  reason?: string;
}

/** A complete draft (kept when a Regenerate is stopped). */
export interface DraftSnapshot {
  draft: string;
  draftSource: "model" | "offline" | null;
  draftTarget: DraftTarget | null;
  /** The undone compaction (its id) whose summary this draft is; null for a draft made here. */
  undoneFrom: string | null;
  /** The summarizer was stopped midway: the draft is what it had written (Confirm asks once). */
  draftIncomplete?: boolean;
}

export interface SessionCompaction extends DraftSnapshot {
  previewOpen: boolean;
  focus: string;
  /** Keep-recent tokens chosen in the review (null: the settings' value). */
  keepRecentOverride: number | null;
  /** A cut chosen by hand (null: the automatic cut). */
  cutEntryId: string | null;
  /** The cut is the one an Undo put back with its summary, not one the person moved. */
  cutRestored: boolean;
  /** Summarizer model chosen in the review (null: the settings' or the session's). */
  summarizerModel: string | null;
  status: PreviewStatus;
  error: string | null;
  /** The complete draft a running Regenerate replaces (restored on Stop). */
  previous: DraftSnapshot | null;
  /** Bumped to ask the review to start generating (auto-open in ask mode). */
  generateRequest: number;
  reason: string | null;
  /** Prompts waiting for the person to confirm or skip the compaction (ask mode). */
  queued: number;
  /** Timeline shows the built context (summary first) instead of the raw path. */
  modelView: boolean;
  historyOpen: boolean;
  last: LastCompaction | null;
  /** The compaction entry an Undo went back from (Redo moves to it again). */
  undone: { entryId: string } | null;
  /** A message about overflow recovery (this session's only). */
  notice: string | null;
  /** Coverage items (their keys) the person said the summary does not need. */
  coverageDismissed: readonly string[];
  /** Tool outputs masked from this review (a compaction confirmed after it records "masking"). */
  maskedInReview: number;
  /** The review opened the side panel (it was closed): Confirm closes it again, the timeline keeps its width. */
  openedPanel: boolean;
}

export const EMPTY_DRAFT: DraftSnapshot & { status: PreviewStatus; error: string | null } = {
  status: "idle",
  draft: "",
  draftSource: null,
  draftTarget: null,
  undoneFrom: null,
  draftIncomplete: false,
  error: null,
};

export const INITIAL_SESSION_STATE: Readonly<SessionCompaction> = Object.freeze({
  previewOpen: false,
  focus: "",
  keepRecentOverride: null,
  cutEntryId: null,
  cutRestored: false,
  summarizerModel: null,
  ...EMPTY_DRAFT,
  previous: null,
  generateRequest: 0,
  reason: null,
  queued: 0,
  modelView: false,
  historyOpen: false,
  last: null,
  undone: null,
  notice: null,
  coverageDismissed: Object.freeze([]) as readonly string[],
  maskedInReview: 0,
  openedPanel: false,
});

export interface CompactionUiState {
  bySession: Readonly<Record<string, SessionCompaction>>;
  /** Sessions whose saved draft was read (or found absent) after the page loaded. */
  hydrated: Readonly<Record<string, true>>;

  openCompactionPreview(sessionId: string, options?: OpenPreviewOptions): void;
  closePreview(sessionId: string): void;
  patch(sessionId: string, patch: Partial<SessionCompaction>): void;
  setKeepRecent(sessionId: string, tokens: number | null): void;
  /** The person moved the cut (the timeline's handle); null: back to the automatic cut. */
  moveCut(sessionId: string, entryId: string | null): void;
  setStatus(sessionId: string, status: PreviewStatus, patch?: Partial<SessionCompaction>): void;
  /** Clears the draft (Discard / Cancel). */
  resetDraft(sessionId: string): void;
  /**
   * After an Undo: the undone compaction's summary becomes the draft, at its cut, unless a draft
   * is under way (then it stays). Nothing is written.
   */
  offerUndone(sessionId: string, entryId: string, offer: UndoneDraft | undefined): void;
  /** After a Redo: the offer of that compaction's summary is withdrawn (it is in the session again). */
  withdrawUndone(sessionId: string, entryId: string): void;
  /** Restores a saved review (after a reload) under what this page already changed, which wins. */
  hydrate(sessionId: string, saved: Partial<SessionCompaction> | undefined): void;
}

/** The compaction state of one session (the initial state when it has none). */
export function sessionState(s: Pick<CompactionUiState, "bySession">, sessionId: string): SessionCompaction {
  return s.bySession[sessionId] ?? INITIAL_SESSION_STATE;
}

/**
 * A saved review under what this page did before it was read back (the review opened right after
 * a reload): what the page changed wins, what it left as it was comes from the saved review.
 */
function restored(saved: Partial<SessionCompaction>, page: SessionCompaction | undefined): SessionCompaction {
  const out: SessionCompaction = { ...INITIAL_SESSION_STATE, ...saved };
  if (!page) return out;
  const changed = Object.fromEntries(
    Object.entries(page).filter(([k, v]) => v !== INITIAL_SESSION_STATE[k as keyof SessionCompaction]),
  );
  return { ...out, ...changed };
}

export const useCompactionStore = create<CompactionUiState>()((set) => {
  const update = (sessionId: string, f: (s: SessionCompaction) => Partial<SessionCompaction>) =>
    set((st) => {
      const cur = sessionState(st, sessionId);
      return { bySession: { ...st.bySession, [sessionId]: { ...cur, ...f(cur) } } };
    });
  return {
    bySession: {},
    hydrated: {},
    openCompactionPreview: (sessionId, options = {}) =>
      update(sessionId, (s) => {
        const busy = s.status === "generating" || s.status === "ready";
        return {
          previewOpen: true,
          ...(options.focus !== undefined && options.focus.trim() !== ""
            ? { focus: options.focus.trim() }
            : {}),
          ...(options.reason !== undefined ? { reason: options.reason } : {}),
          ...(busy ? {} : { ...EMPTY_DRAFT }),
          ...(options.generate && !busy ? { generateRequest: s.generateRequest + 1 } : {}),
        };
      }),
    closePreview: (sessionId) =>
      update(sessionId, () => ({ previewOpen: false, reason: null, maskedInReview: 0 })),
    patch: (sessionId, patch) => update(sessionId, () => patch),
    setKeepRecent: (sessionId, tokens) =>
      update(sessionId, () => ({ keepRecentOverride: tokens, cutEntryId: null, cutRestored: false })),
    moveCut: (sessionId, entryId) => update(sessionId, () => ({ cutEntryId: entryId, cutRestored: false })),
    setStatus: (sessionId, status, patch = {}) => update(sessionId, () => ({ status, ...patch })),
    resetDraft: (sessionId) => update(sessionId, () => ({ ...EMPTY_DRAFT, previous: null })),
    offerUndone: (sessionId, entryId, offer) =>
      update(sessionId, (s) => {
        const underWay = (s.status === "ready" || s.status === "generating") && s.draft.trim() !== "";
        if (underWay || !offer) return { undone: { entryId }, ...(underWay ? {} : { status: "undone" }) };
        return {
          undone: { entryId },
          status: "ready",
          ...offer,
          cutEntryId: offer.draftTarget.firstKeptEntryId,
          cutRestored: true,
          keepRecentOverride: null,
          error: null,
          previous: null,
        };
      }),
    withdrawUndone: (sessionId, entryId) =>
      update(sessionId, (s) => {
        if (s.undoneFrom === entryId && s.status === "ready")
          return { ...EMPTY_DRAFT, status: "confirmed", previous: null, cutEntryId: null, undone: null };
        const underWay = s.status === "ready" || s.status === "generating";
        return { undone: null, ...(underWay ? {} : { status: "confirmed" as const }) };
      }),
    hydrate: (sessionId, saved) =>
      set((st) => {
        if (st.hydrated[sessionId]) return {};
        const hydrated = { ...st.hydrated, [sessionId]: true as const };
        if (!saved) return { hydrated };
        return {
          hydrated,
          bySession: { ...st.bySession, [sessionId]: restored(saved, st.bySession[sessionId]) },
        };
      }),
  };
});

/** Whether the person moved the cut: a cut chosen in the timeline, not one an Undo put back with its summary. */
export function cutMovedByHand(s: SessionCompaction): boolean {
  return s.cutEntryId !== null && !s.cutRestored;
}

/** Selects from one session's compaction state: `useSessionCompaction(id, (s) => s.draft)`. */
export function useSessionCompaction<T>(sessionId: string, select: (s: SessionCompaction) => T): T {
  return useCompactionStore((st) => select(sessionState(st, sessionId)));
}

/** For the composer's `/compact [focus]` and the shortcut: opens the review (and the side panel). */
export function openCompactionPreview(sessionId: string, options: OpenPreviewOptions = {}): void {
  const ui = useUiStore.getState();
  const store = useCompactionStore.getState();
  const wasOpen = sessionState(store, sessionId).previewOpen;
  store.openCompactionPreview(sessionId, options);
  if (!wasOpen) store.patch(sessionId, { openedPanel: !ui.rightPanelOpen });
  ui.setRightPanelOpen(true);
}

/** Parses `/compact [focus]`; undefined when the text is not that command. */
export function parseCompactCommand(text: string): { focus: string } | undefined {
  const m = /^\/compact(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  return { focus: (m[1] ?? "").trim() };
}
