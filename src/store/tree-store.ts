/**
 * Transient state of the session tree (zustand): whether the tree panel is open, the runs the
 * person expanded, a pending navigation (the branch-summary preview) and text handed to the
 * composer ("Edit and resend", navigating to a user message).
 *
 * Composer contract: the composer (src/ui/agent/composer.tsx) reads `composerDraft` (narrow selector) and, when its `seq`
 * changes and its `sessionId` is the open session, replaces its text with `text` and focuses
 * itself, then calls `takeComposerDraft(seq)`.
 */
import { create } from "zustand";

export interface ComposerDraft {
  sessionId: string;
  text: string;
  /** Increases with every hand-off, so the same text handed twice is seen twice. */
  seq: number;
}

export interface PendingNavigation {
  sessionId: string;
  /** The entry the person picked (null = before the first entry). */
  targetId: string | null;
}

export interface TreeState {
  treeOpen: boolean;
  /** Run keys (`run:<id>`) shown entry by entry. */
  expandedRuns: ReadonlySet<string>;
  navigation: PendingNavigation | null;
  composerDraft: ComposerDraft | null;
  /** Entry id whose label is being edited. */
  labelling: { sessionId: string; entryId: string } | null;

  setTreeOpen(open: boolean): void;
  toggleRun(key: string): void;
  startNavigation(sessionId: string, targetId: string | null): void;
  endNavigation(): void;
  /** Puts text into the composer of `sessionId` (replacing what is there). */
  putInComposer(sessionId: string, text: string): void;
  /** The composer took the draft with this seq. */
  takeComposerDraft(seq: number): void;
  startLabel(sessionId: string, entryId: string): void;
  endLabel(): void;
}

let draftSeq = 0;

export const useTreeStore = create<TreeState>()((set) => ({
  treeOpen: false,
  expandedRuns: new Set<string>(),
  navigation: null,
  composerDraft: null,
  labelling: null,

  setTreeOpen: (open) => set({ treeOpen: open }),
  toggleRun: (key) =>
    set((s) => {
      const next = new Set(s.expandedRuns);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return { expandedRuns: next };
    }),
  startNavigation: (sessionId, targetId) => set({ navigation: { sessionId, targetId } }),
  endNavigation: () => set({ navigation: null }),
  putInComposer: (sessionId, text) => set({ composerDraft: { sessionId, text, seq: ++draftSeq } }),
  takeComposerDraft: (seq) => set((s) => (s.composerDraft?.seq === seq ? { composerDraft: null } : {})),
  startLabel: (sessionId, entryId) => set({ labelling: { sessionId, entryId } }),
  endLabel: () => set({ labelling: null }),
}));
