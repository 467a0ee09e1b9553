/** Moves, labels and branch summaries in the app's sessions, for the UI (which never touches the database itself). */
import { onAppDb } from "../common/app-db.ts";
import {
  confirmBranchSummary,
  draftBranchSummary,
  moveLeaf,
  setLabel,
  summarizerAvailable,
} from "./branch-service.ts";

export const appTree = {
  moveLeaf: onAppDb(moveLeaf),
  setLabel: onAppDb(setLabel),
  summarizerAvailable: onAppDb(summarizerAvailable),
  draftBranchSummary: onAppDb(draftBranchSummary),
  confirmBranchSummary: onAppDb(confirmBranchSummary),
};
