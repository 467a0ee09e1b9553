/**
 * Transient state of the compaction UI: the preview (open, cut, keep-recent, focus, summarizer
 * model, the draft summary and its status), the timeline's toggles, the ask-mode queue and the
 * last compaction (for Undo). Nothing here is persisted; entries are written only by
 * services/compaction-runner.ts on Confirm.
 */
import { create } from "zustand";
import { useUiStore } from "./ui-store.ts";

export type PreviewStatus = "idle" | "generating" | "ready" | "failed" | "aborted" | "confirmed" | "undone";

/** What the draft was generated for: the cut and numbers of the plan at that time. */
export interface DraftTarget {
  firstKeptEntryId: string;
  tokensBefore: number;
  readFiles: string[];
  modifiedFiles: string[];
}

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

export interface CompactionUiState {
  previewOpen: boolean;
  focus: string;
  /** Keep-recent tokens chosen in the preview (null: the settings' value). */
  keepRecentOverride: number | null;
  /** A cut chosen by hand (null: the automatic cut). */
  cutEntryId: string | null;
  /** Summarizer model chosen in the preview (null: the settings' or the session's). */
  summarizerModel: string | null;
  status: PreviewStatus;
  draft: string;
  draftSource: "model" | "offline" | null;
  draftTarget: DraftTarget | null;
  error: string | null;
  /** Bumped to ask the preview to start generating (auto-open in ask mode). */
  generateRequest: number;
  reason: string | null;
  /** Prompts waiting for the person to confirm or skip the compaction (ask mode). */
  queued: number;
  /** Timeline shows the built context (summary first) instead of the raw path. */
  modelView: boolean;
  historyOpen: boolean;
  last: LastCompaction | null;
  /** A message about overflow recovery (second overflow: advice). */
  notice: string | null;

  openCompactionPreview(options?: OpenPreviewOptions): void;
  closePreview(): void;
  setFocus(focus: string): void;
  setKeepRecent(tokens: number | null): void;
  setCut(entryId: string | null): void;
  setSummarizerModel(model: string | null): void;
  setDraft(text: string): void;
  setStatus(status: PreviewStatus, patch?: Partial<CompactionUiState>): void;
  setModelView(on: boolean): void;
  setHistoryOpen(on: boolean): void;
  setLast(last: LastCompaction | null): void;
  setNotice(notice: string | null): void;
  setQueued(n: number): void;
  /** Clears the draft (Discard / Cancel). */
  resetDraft(): void;
}

const EMPTY_DRAFT = {
  status: "idle" as PreviewStatus,
  draft: "",
  draftSource: null,
  draftTarget: null,
  error: null,
};

export const useCompactionStore = create<CompactionUiState>()((set) => ({
  previewOpen: false,
  focus: "",
  keepRecentOverride: null,
  cutEntryId: null,
  summarizerModel: null,
  ...EMPTY_DRAFT,
  generateRequest: 0,
  reason: null,
  queued: 0,
  modelView: false,
  historyOpen: false,
  last: null,
  notice: null,

  openCompactionPreview: (options = {}) =>
    set((s) => {
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
  closePreview: () => set({ previewOpen: false, reason: null }),
  setFocus: (focus) => set({ focus }),
  setKeepRecent: (tokens) => set({ keepRecentOverride: tokens, cutEntryId: null }),
  setCut: (entryId) => set({ cutEntryId: entryId }),
  setSummarizerModel: (model) => set({ summarizerModel: model }),
  setDraft: (text) => set({ draft: text }),
  setStatus: (status, patch = {}) => set({ status, ...patch }),
  setModelView: (on) => set({ modelView: on }),
  setHistoryOpen: (on) => set({ historyOpen: on }),
  setLast: (last) => set({ last }),
  setNotice: (notice) => set({ notice }),
  setQueued: (n) => set({ queued: n }),
  resetDraft: () => set({ ...EMPTY_DRAFT }),
}));

/** For the composer's `/compact [focus]`: opens the preview (and the side panel). */
export function openCompactionPreview(options: OpenPreviewOptions = {}): void {
  useCompactionStore.getState().openCompactionPreview(options);
  useUiStore.getState().setRightPanelOpen(true);
}

/** Parses `/compact [focus]`; undefined when the text is not that command. */
export function parseCompactCommand(text: string): { focus: string } | undefined {
  const m = /^\/compact(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  return { focus: (m[1] ?? "").trim() };
}
