/**
 * The import question on screen (bad lines / existing id). The import flow awaits `ask()`;
 * the dialog answers with `answer()`. Transient only.
 */
import { create } from "zustand";

export type ImportAnswer = "valid" | "replace" | "copy" | "cancel";

export interface ImportQuestion {
  fileName: string;
  sessionName: string;
  entryCount: number;
  problems: { line: number; reason: string; excerpt: string }[];
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
