/**
 * The running imports as the views show them: each phase's name and how far it is (the progress
 * box and the preview's status line say the same), and which import's preview the main area shows.
 */
import { type ImportJob, useUiStore } from "../../store/ui-store.ts";

export const IMPORT_PHASES: Record<ImportJob["phase"], string> = {
  read: "Reading",
  parse: "Parsing",
  prepare: "Preparing",
  save: "Saving",
  waiting: "Waiting for your answer",
};

/** " · 45 %" while the file is read and parsed; "" in the phases that have no measure. */
export function importPercent(job: Pick<ImportJob, "phase" | "fraction">): string {
  return job.phase === "read" || job.phase === "parse" ? ` · ${Math.round(job.fraction * 100)} %` : "";
}

/**
 * The id of the newest import whose preview is shown, or undefined: a preview is shown while no
 * session is selected (it deselects the open one; choosing a session leaves the preview).
 */
export function usePreviewedImport(): number | undefined {
  return useUiStore((s) =>
    s.selectedSessionId === undefined ? s.imports.findLast((j) => j.preview !== undefined)?.id : undefined,
  );
}
