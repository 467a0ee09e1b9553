/**
 * The main area while a big file is imported: its newest entries, read from the file's end, in
 * the timeline (read-only: nothing is stored yet), with how far the import is. The stored session
 * replaces it when the import is done; a cancelled or failed import takes it away. Only the status
 * line re-renders as the import goes on (not the timeline: the page is busy parsing then).
 */
import { useMemo, useRef } from "react";
import { type ImportJob, useUiStore } from "../../store/ui-store.ts";
import { SafeText } from "../common/safe-text.tsx";
import { useBottomVar } from "../common/use-bottom-var.ts";
import { formatCount } from "../format.ts";
import { MenuToggle } from "../shell/menu-toggle.tsx";
import { SettingsButton } from "../shell/settings-button.tsx";
import { Timeline } from "../timeline/timeline.tsx";
import { timelineModel } from "../timeline/timeline-model.ts";
import { IMPORT_PHASES, importPercent } from "./import-jobs.ts";

const jobOf = (jobs: readonly ImportJob[], id: number) => jobs.find((j) => j.id === id);

function PreviewStatus({ jobId, count }: { jobId: number; count: number }) {
  const phase = useUiStore((s) => jobOf(s.imports, jobId)?.phase ?? "parse");
  const fraction = useUiStore((s) => jobOf(s.imports, jobId)?.fraction ?? 0);
  return (
    <span role="status" data-testid="import-preview-status">
      The newest {formatCount(count)} entries, from the end of the file · {IMPORT_PHASES[phase].toLowerCase()}
      {importPercent({ phase, fraction })}
    </span>
  );
}

export function ImportPreview({ jobId }: { jobId: number }) {
  const preview = useUiStore((s) => jobOf(s.imports, jobId)?.preview);
  const fileName = useUiStore((s) => jobOf(s.imports, jobId)?.fileName ?? "");
  const model = useMemo(() => (preview ? timelineModel(preview.entries) : undefined), [preview]);
  const count = preview?.entries.length ?? 0;
  const status = useMemo(() => <PreviewStatus jobId={jobId} count={count} />, [jobId, count]);
  // Overlays placed under the bar (the import's progress) follow its real height.
  const barRef = useRef<HTMLElement>(null);
  useBottomVar(barRef, "topbar-bottom");
  if (!model) return null;
  return (
    <>
      <header className="topbar" ref={barRef}>
        <MenuToggle />
        <h1
          className="topbar-title"
          style={{ fontSize: "1rem", margin: 0 }}
          data-testid="import-preview-title"
        >
          Importing <SafeText text={fileName} />
        </h1>
        <span className="topbar-sub">nothing is stored until every line is checked</span>
        <div className="topbar-actions">
          <SettingsButton />
        </div>
      </header>
      <div className="workspace">
        <section className="conversation" aria-label="Conversation (import preview)">
          <Timeline model={model} partial status={status} />
        </section>
      </div>
    </>
  );
}
