/**
 * The main area while a big file is imported: its newest entries, read from the file's end, in
 * the timeline (read-only: nothing is stored yet), with how far the import is. The stored session
 * replaces it when the import is done; a cancelled or failed import takes it away.
 */
import { useMemo } from "react";
import { type ImportJob, useUiStore } from "../../store/ui-store.ts";
import { SafeText } from "../common/safe-text.tsx";
import { formatCount } from "../format.ts";
import { SettingsButton } from "../shell/settings-button.tsx";
import { Timeline } from "../timeline/timeline.tsx";
import { timelineModel } from "../timeline/timeline-model.ts";

const PHASES: Record<ImportJob["phase"], string> = {
  read: "reading",
  parse: "checking every line",
  prepare: "preparing",
  save: "saving",
  waiting: "waiting for your answer",
};

/** The newest job with a preview (the one whose file is shown), or undefined. */
export function usePreviewedImport(): ImportJob | undefined {
  return useUiStore((s) => s.imports.findLast((j) => j.preview !== undefined));
}

export function ImportPreview({ job }: { job: ImportJob & { preview: NonNullable<ImportJob["preview"]> } }) {
  const setSidebarOpen = useUiStore((s) => s.setSidebarOpen);
  const { preview } = job;
  const model = useMemo(() => timelineModel(preview.entries), [preview]);
  const percent = job.phase === "read" || job.phase === "parse" ? ` ${Math.round(job.fraction * 100)} %` : "";
  return (
    <>
      <header className="topbar">
        <button
          type="button"
          className="btn ghost icon menu-toggle"
          aria-label="Show the session list"
          aria-controls="sidebar"
          onClick={() => setSidebarOpen(true)}
        >
          ☰
        </button>
        <h1
          className="topbar-title"
          style={{ fontSize: "1rem", margin: 0 }}
          data-testid="import-preview-title"
        >
          Importing <SafeText text={job.fileName} />
        </h1>
        <span className="topbar-sub">nothing is stored until every line is checked</span>
        <div className="topbar-actions">
          <SettingsButton />
        </div>
      </header>
      <div className="workspace">
        <section className="conversation" aria-label="Conversation (import preview)">
          <Timeline
            model={model}
            partial
            status={
              <span role="status" data-testid="import-preview-status">
                The newest {formatCount(preview.entries.length)} entries, from the end of the file ·{" "}
                {PHASES[job.phase]}
                {percent}
              </span>
            }
          />
        </section>
      </div>
    </>
  );
}
