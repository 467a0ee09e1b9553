/**
 * The import question on screen (bad lines / existing id). The import flow awaits `ask()`;
 * the dialog answers with `answer()`. Transient only.
 */
import { create } from "zustand";
import type { LineProblem, PathSummary } from "../core/session/damage.ts";

export type ImportAnswer = "valid" | "replace" | "copy" | "cancel";

export interface ImportQuestion {
  fileName: string;
  sessionName: string;
  entryCount: number;
  problems: LineProblem[];
  /** The current path of what would be stored. */
  path: PathSummary;
  /** Name of the stored session with the same id, when there is one. */
  existingName: string | undefined;
}

interface ImportQuestionState {
  question: ImportQuestion | undefined;
  resolve: ((answer: ImportAnswer) => void) | undefined;
  ask(question: ImportQuestion): Promise<ImportAnswer>;
  answer(answer: ImportAnswer): void;
}

export const useImportQuestion = create<ImportQuestionState>()((set, get) => ({
  question: undefined,
  resolve: undefined,
  ask: (question) =>
    new Promise<ImportAnswer>((resolve) => {
      get().resolve?.("cancel");
      set({ question, resolve });
    }),
  answer: (answer) => {
    const resolve = get().resolve;
    set({ question: undefined, resolve: undefined });
    resolve?.(answer);
  },
}));
