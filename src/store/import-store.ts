/**
 * The import question on screen (bad lines / existing id). The import flow awaits `ask()`;
 * the dialog answers with `answer()`, which may apply to the rest of the import (`forAll`).
 * Transient only.
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
  /** Files of the same import after this one (the answer to an existing id can apply to them). */
  remaining: number;
}

export interface ImportReply {
  answer: ImportAnswer;
  /** Do the same for the import's other files whose session is already here. */
  forAll: boolean;
}

interface ImportQuestionState {
  question: ImportQuestion | undefined;
  resolve: ((reply: ImportReply) => void) | undefined;
  ask(question: ImportQuestion): Promise<ImportReply>;
  answer(answer: ImportAnswer, forAll?: boolean): void;
}

export const useImportQuestion = create<ImportQuestionState>()((set, get) => ({
  question: undefined,
  resolve: undefined,
  ask: (question) =>
    new Promise<ImportReply>((resolve) => {
      get().resolve?.({ answer: "cancel", forAll: false });
      set({ question, resolve });
    }),
  answer: (answer, forAll = false) => {
    const resolve = get().resolve;
    set({ question: undefined, resolve: undefined });
    resolve?.({ answer, forAll });
  },
}));
