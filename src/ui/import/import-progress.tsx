/** Progress of running imports (reading, parsing, saving), announced politely. */

import { useUiStore } from "../../store/ui-store.ts";
import { SafeText } from "../common/safe-text.tsx";
import { IMPORT_PHASES, importPercent, usePreviewedImport } from "./import-jobs.ts";

export function ImportProgress() {
  const jobs = useUiStore((s) => s.imports);
  // Over a preview, below its bar (the bar's title and the preview's status stay readable).
  const underBar = usePreviewedImport() !== undefined;
  if (jobs.length === 0) return null;
  return (
    <div className={`imports${underBar ? " under-bar" : ""}`} role="status" aria-live="polite">
      {jobs.map((j) => (
        <div key={j.id} className="import-job" data-testid="import-progress">
          <div>
            {IMPORT_PHASES[j.phase]}
            {j.phase === "waiting" ? " about" : ""} <SafeText text={j.fileName} />
            {importPercent(j)}
          </div>
          <progress max={1} value={j.phase === "save" || j.phase === "prepare" ? undefined : j.fraction} />
        </div>
      ))}
    </div>
  );
}
