/**
 * The review's summary draft: the editor (read-only while it streams), a rendered view, a diff
 * against the previous summary, hidden characters marked, and a note when the cut moved since the
 * draft was made.
 */
import { useId, useState } from "react";
import { useCompactionStore, useSessionCompaction } from "../../store/compaction-store.ts";
import { HiddenCharsNote } from "../common/safe-text.tsx";
import { Markdown } from "../timeline/lazy-markdown.tsx";
import { SummaryDiff } from "./summary-diff.tsx";

export function SummaryDraft({
  sessionId,
  previousSummary,
  stale,
}: {
  sessionId: string;
  previousSummary: string | undefined;
  /** The cut moved since the draft was made (Confirm is off until it is made again). */
  stale: boolean;
}) {
  const s = useSessionCompaction(sessionId, (x) => x);
  const patch = (p: Parameters<ReturnType<typeof useCompactionStore.getState>["patch"]>[1]) =>
    useCompactionStore.getState().patch(sessionId, p);
  const [rendered, setRendered] = useState(false);
  const [compare, setCompare] = useState(false);
  const ids = { draft: useId() };
  return (
    <div className="cp-draft">
      <div className="cp-draft-head">
        <label htmlFor={ids.draft}>
          Summary{" "}
          {s.draftSource === "offline" ? (
            <span className="cp-tag offline">offline summary (no model)</span>
          ) : null}
        </label>
        <label className="cp-toggle">
          <input type="checkbox" checked={rendered} onChange={(e) => setRendered(e.target.checked)} />{" "}
          rendered
        </label>
        {previousSummary && (
          <label className="cp-toggle">
            <input type="checkbox" checked={compare} onChange={(e) => setCompare(e.target.checked)} /> compare
            with previous
          </label>
        )}
      </div>
      {stale && (
        <p className="cp-banner" role="status">
          The cut moved since this summary was made: regenerate (or use the offline summary) to confirm.
        </p>
      )}
      {compare && previousSummary ? (
        <SummaryDiff before={previousSummary} after={s.draft} />
      ) : rendered ? (
        <div className="cp-rendered">
          <Markdown text={s.draft} />
        </div>
      ) : (
        <textarea
          id={ids.draft}
          className="cp-editor"
          data-testid="summary-editor"
          value={s.draft}
          readOnly={s.status === "generating"}
          onChange={(e) => patch({ draft: e.target.value })}
          rows={20}
        />
      )}
      {!rendered && !compare && <HiddenCharsNote value={s.draft} />}
    </div>
  );
}
