/**
 * The import flow for files from the picker or a drop: parse on the page in slices (progress shown),
 * ask about bad lines and an existing id, store in one transaction, report, open the session. A big
 * file's newest entries are shown while it is parsed (the job's `preview`, see ImportPreview).
 */
import { useCallback } from "react";
import type { SessionRow } from "../../services/import/import-instance.ts";
import { importJournal } from "../../services/import/import-journal-instance.ts";
import { describeImported, describeNormalized } from "../../services/import/import-report.ts";
import type { ImportChoice } from "../../services/import/import-service.ts";
import type { SessionHandover } from "../../services/session/session-handover.ts";
import { useImportQuestion } from "../../store/import-store.ts";
import { TOAST_TIMEOUTS, useUiStore } from "../../store/ui-store.ts";
import { formatCountOf } from "../format.ts";
import { useAppServices } from "../hooks/app-services.tsx";

let jobSeq = 0;

/** One import of several files: how many are left, and the answer to an existing id chosen for all. */
interface Batch {
  remaining: number;
  existing?: "replace" | "copy" | "cancel";
}

async function importOne(
  file: File,
  batch: Batch,
  handover: SessionHandover,
): Promise<SessionRow | undefined> {
  const ui = useUiStore.getState();
  const id = ++jobSeq;
  ui.upsertImport({ id, fileName: file.name, phase: "read", fraction: 0 });
  // Written down until it ends: an import a crash cuts off is named on the next start.
  const mark = importJournal.begin(file);
  try {
    // The parser and the rest of the import: a lazy chunk (not in the initial JS).
    const { appImport } = await import("../../services/import/import-instance.ts");
    let last = 0;
    const parsed = await appImport.parseFile(
      file,
      (phase, fraction) => {
        void mark.phase(phase);
        const now = performance.now();
        if (now - last < 80 && fraction < 1) return;
        last = now;
        useUiStore.getState().upsertImport({ id, fileName: file.name, phase, fraction });
      },
      // Shown in the main area while the file is parsed (see ImportPreview), until it is stored.
      (preview) => {
        const state = useUiStore.getState();
        const previewOver = state.selectedSessionId ?? null;
        state.upsertImport({ id, fileName: file.name, phase: "parse", fraction: 0, preview, previewOver });
        if (previewOver !== null) state.selectSession(undefined);
      },
      // The parsed entries, offered to the session's open after the store (nothing read back).
      handover,
    );
    if (!parsed.ok) {
      ui.pushToast({ kind: "error", message: `${file.name}: ${parsed.error.message}` });
      return undefined;
    }
    const parsedImport = parsed.value;
    const candidate = parsedImport.summary;
    const q = await appImport.questionsFor(candidate);
    let choice: ImportChoice = "new";
    // An id already here, nothing else to ask: the answer chosen for the whole import, if any.
    const chosen = q.existing && !q.problems ? batch.existing : undefined;
    if (q.problems || q.existing) {
      useUiStore.getState().upsertImport({ id, fileName: file.name, phase: "waiting", fraction: 1 });
      void mark.phase("waiting");
      const { answer, forAll } = chosen
        ? { answer: chosen, forAll: false }
        : await useImportQuestion.getState().ask({
            fileName: file.name,
            sessionName: candidate.meta.name ?? candidate.meta.firstUserMessage,
            entryCount: candidate.meta.entryCount,
            problems: candidate.problems,
            path: candidate.path,
            existingName: q.existing
              ? (q.existing.name ?? q.existing.firstUserMessage) || q.existing.id
              : undefined,
            remaining: batch.remaining,
          });
      if (forAll && q.existing && answer !== "valid") batch.existing = answer;
      if (answer === "cancel") {
        parsedImport.discard();
        ui.pushToast({ kind: "info", message: `${file.name}: import cancelled, nothing was written.` });
        return undefined;
      }
      choice = answer === "replace" ? "replace" : answer === "copy" ? "copy" : "new";
    }
    useUiStore.getState().upsertImport({ id, fileName: file.name, phase: "save", fraction: 1 });
    const sessionId = importJournal.sessionIdFor(choice === "copy", candidate.header.id);
    // Written before the save starts: a cut after it can tell whether the session landed.
    await mark.phase("save", sessionId);
    const saved = await parsedImport.commit(choice, sessionId);
    performance.mark("cutpoint:import-stored", {
      detail: { ...candidate.timings, save: saved.saveMs ?? 0, file: file.name },
    });
    if (!saved.ok) {
      ui.pushToast({ kind: "error", message: `${file.name}: ${saved.error.message}` });
      return undefined;
    }
    // What was normalized (BOM, CRLF, blank lines) is said, never asked: nothing of the session changes.
    const normalized = describeNormalized(candidate.normalized);
    ui.pushToast({
      kind: "success",
      message: `Imported ${file.name}: ${formatCountOf(saved.value.entryCount, "entry", "entries")}.${describeImported(candidate.problems, candidate.path)}${normalized === "" ? "" : ` ${normalized}`}`,
      // A longer report stays long enough to be read.
      ...(normalized === "" ? {} : { timeout: 2 * TOAST_TIMEOUTS.success }),
    });
    // Opened in the same render that removes its preview (no "Loading" in between).
    ui.selectSession(saved.value.id);
    return saved.value;
  } finally {
    void mark.end();
    const state = useUiStore.getState();
    const previewOver = state.imports.find((j) => j.id === id)?.previewOver;
    state.removeImport(id);
    // Nothing stored and nothing chosen meanwhile: back to the session its preview was shown over.
    if (previewOver && state.selectedSessionId === undefined) state.selectSession(previewOver);
  }
}

/** Imports files one after the other; each one stored is opened (the last one stays open). */
export function useImportFiles(): (files: readonly File[]) => Promise<void> {
  const { handover } = useAppServices();
  return useCallback(
    async (files) => {
      const batch: Batch = { remaining: files.length };
      for (const file of files) {
        batch.remaining--;
        await importOne(file, batch, handover);
      }
    },
    [handover],
  );
}

/** Imports one file as the picker does (same questions and report) and gives the stored session's id. */
export function useImportFile(): (file: File) => Promise<string | undefined> {
  const { handover } = useAppServices();
  return useCallback(async (file) => (await importOne(file, { remaining: 0 }, handover))?.id, [handover]);
}
