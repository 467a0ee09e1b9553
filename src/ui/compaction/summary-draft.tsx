/**
 * The review's summary draft: the editor (read-only while it streams), a rendered view, a diff
 * against the previous summary, hidden characters marked, and a note when it is an undone
 * compaction's summary; before there is a draft, what Generate and Offline summary do.
 */
import { useId, useState } from "react";
import { useCompactionStore, useSessionCompaction } from "../../store/compaction-store.ts";
import { HiddenCharsNote } from "../common/safe-text.tsx";
import { Markdown } from "../timeline/lazy-markdown.tsx";
import { SummaryDiff } from "./summary-diff.tsx";

export function SummaryDraft({
  sessionId,
  previousSummary,
}: {
  sessionId: string;
  previousSummary: string | undefined;
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
          {s.draftIncomplete && s.status === "ready" ? (
            <span className="cp-tag incomplete" data-testid="draft-incomplete">
              incomplete: stopped midway
            </span>
          ) : s.undoneFrom !== null ? (
            <span className="cp-tag undone">undone summary</span>
          ) : s.draftSource === "offline" ? (
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
      {s.undoneFrom !== null && (
        <p className="cp-banner undone" data-testid="undone-draft">
          The undone compaction's summary, at its cut: edit it and confirm it again, or discard it. Nothing is
          written before Confirm.
        </p>
      )}
      {s.draftIncomplete && s.status === "ready" && (
        <p className="cp-banner incomplete" data-testid="incomplete-draft">
          Generating was stopped: this is what the summarizer had written, and it may end mid-sentence. Finish
          it by hand, regenerate, or confirm it as it is.
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

/** In the draft's place before there is one: what each way of making it does (or why there is none). */
export function DraftEmpty({ reason }: { reason: string | undefined }) {
  return (
    <div className="cp-draft-empty" data-testid="draft-empty">
      {reason ? (
        // Each reason is a whole sentence that says why ("Nothing to summarize: …").
        <p className="cp-note" data-testid="nothing-to-compact">
          {reason}
        </p>
      ) : (
        <>
          <p>No summary yet: make one, then read and edit it here before you confirm.</p>
          <ul>
            <li>
              <strong>Generate summary</strong>: the summarizer model writes it, with your focus; you can stop
              it, and edit what it wrote.
            </li>
            <li>
              <strong>Offline summary</strong>: written here from the session itself (goal, files, commands,
              last messages), without a model or key.
            </li>
          </ul>
        </>
      )}
      <p className="cp-note">Nothing is written to the session before Confirm; Cancel leaves it as it is.</p>
    </div>
  );
}
