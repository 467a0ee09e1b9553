/** Progress of running imports (reading, parsing, saving), announced politely. */

import { useUiStore } from "../../store/ui-store.ts";
import { SafeText } from "../common/safe-text.tsx";

const PHASES = {
  read: "Reading",
  parse: "Parsing",
  prepare: "Preparing",
  save: "Saving",
  waiting: "Waiting for you",
};

export function ImportProgress() {
  const jobs = useUiStore((s) => s.imports);
  if (jobs.length === 0) return null;
  return (
    <div className="imports" role="status" aria-live="polite">
      {jobs.map((j) => (
        <div key={j.id} className="import-job" data-testid="import-progress">
          <div>
            {PHASES[j.phase]} <SafeText text={j.fileName} />
            {j.phase === "read" || j.phase === "parse" ? ` · ${Math.round(j.fraction * 100)} %` : ""}
          </div>
          <progress max={1} value={j.phase === "save" || j.phase === "prepare" ? undefined : j.fraction} />
        </div>
      ))}
    </div>
  );
}
