/**
 * Transient state of the session tree (zustand): whether the tree panel is open, the runs the
 * person expanded, a pending navigation (the branch-summary preview, opened by `requestLeafMove` in
 * src/ui/tree/leaf-move.ts for the tree panel, the switcher, "Edit and resend" and "Continue from
 * here") and text handed to the composer ("Edit and resend", navigating to a user message).
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

/** Which control asked to move the leaf (the dialog's title, the toast, where focus goes after). */
export type LeafMoveVia = "tree" | "switch" | "edit" | "continue";

/** A request to move the leaf (see `requestLeafMove` in src/ui/tree/leaf-move.ts). */
export interface LeafMoveRequest {
  /** The entry picked (null = before the first entry). */
  targetId: string | null;
  /** "rule" (default): pi's new-leaf rule (a user message target: its parent, text to the composer); "exact": the target. */
  landing?: "rule" | "exact";
  via: LeafMoveVia;
  /** Where focus goes after the move (the control's timeline row may be replaced by the move). */
  focus?: FocusAfterMove;
}

/** A timeline row's head, or a button of the branch switcher on that row. */
export interface FocusAfterMove {
  entryId: string;
  control: "row" | "prev" | "next";
}

export interface PendingNavigation extends LeafMoveRequest {
  sessionId: string;
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
  /** Opens the navigation preview (use `requestLeafMove`, which decides whether to ask). */
  startNavigation(sessionId: string, request: LeafMoveRequest): void;
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
  startNavigation: (sessionId, request) => set({ navigation: { ...request, sessionId } }),
  endNavigation: () => set({ navigation: null }),
  putInComposer: (sessionId, text) => set({ composerDraft: { sessionId, text, seq: ++draftSeq } }),
  takeComposerDraft: (seq) => set((s) => (s.composerDraft?.seq === seq ? { composerDraft: null } : {})),
  startLabel: (sessionId, entryId) => set({ labelling: { sessionId, entryId } }),
  endLabel: () => set({ labelling: null }),
}));
