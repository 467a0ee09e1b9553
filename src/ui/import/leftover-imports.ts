/**
 * On start: the imports a crash or a closed tab cut off, each named once in a toast that stays
 * until dismissed, with what it left (nothing, or the whole session).
 */
import { useEffect } from "react";
import { importJournal, type LeftoverImport } from "../../services/import/import-journal-instance.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { formatBytes } from "../format.ts";

const DOING: Record<LeftoverImport["record"]["phase"], string> = {
  read: "reading it",
  parse: "reading it",
  prepare: "preparing it for storage",
  waiting: "waiting for your answer about it",
  save: "storing it",
};

/** What the notice says about one cut-off import. */
export function leftoverImportWords(l: LeftoverImport, time: (ms: number) => string): string {
  const { fileName, bytes, startedAt, phase } = l.record;
  const what = `The import of “${fileName}” (${formatBytes(bytes)}, started ${time(startedAt)}) was cut off: Cutpoint closed while ${DOING[phase]}.`;
  return l.stored
    ? `${what} The session had been stored whole just before: it is in the list.`
    : `${what} Nothing of it was kept. Import it again.`;
}

export function useLeftoverImports(): void {
  useEffect(() => {
    void importJournal.takeLeftovers().then((leftovers) => {
      const time = (ms: number) => new Date(ms).toLocaleString();
      for (const l of leftovers)
        useUiStore.getState().pushToast({
          kind: l.stored ? "info" : "error",
          key: `leftover-import:${l.record.id}`,
          message: leftoverImportWords(l, time),
          timeout: 0,
        });
    });
  }, []);
}
