/**
 * Every compaction on the current path: when, tokens before, how many entries it replaced, where
 * its kept range starts, its summary, and a line diff against the previous compaction's summary.
 * Undo for the latest one (when it is the leaf).
 */
import { useMemo, useState } from "react";
import { probesFigure } from "../../core/coverage/coverage-probes.ts";
import { compactionSummaryText } from "../../core/session/context.ts";
import { markInvisible } from "../common/invisible.ts";
import { SafeText } from "../common/safe-text.tsx";
import { formatEntryTime } from "../format.ts";
import { useAppServices } from "../hooks/app-services.tsx";
import { CompactionFacts, factsAt } from "../timeline/compaction-facts.tsx";
import { Markdown } from "../timeline/lazy-markdown.tsx";
import { RawToggle } from "../timeline/raw-toggle.tsx";
import { KIND_LABEL } from "./coverage-panel.tsx";
import { fullTokens, plural } from "./format-tokens.ts";
import { compactionHistory } from "./history-model.ts";
import { SummaryDiff } from "./summary-diff.tsx";
import { runUndo } from "./undo-redo.ts";
import type { CompactionModel } from "./use-compaction-model.ts";

export function CompactionHistory({ model }: { model: CompactionModel }) {
  const services = useAppServices();
  const items = useMemo(() => compactionHistory(model.path), [model.path]);
  const [open, setOpen] = useState<string | null>(items.at(-1)?.entry.id ?? null);
  const [diff, setDiff] = useState(false);
  const leaf = model.path[model.path.length - 1];
  return (
    <section className="cp-history" aria-label="Compaction history" data-testid="compaction-history">
      <ol>
        {items.map((it, n) => {
          const isOpen = open === it.entry.id;
          const facts = factsAt(model.path, it.index);
          return (
            <li key={it.entry.id}>
              <button
                type="button"
                className="link"
                aria-expanded={isOpen}
                onClick={() => setOpen(isOpen ? null : it.entry.id)}
              >
                #{n + 1} · {formatEntryTime(it.entry.timestamp)} · {fullTokens(it.entry.tokensBefore)} tokens
                before · replaced {plural(it.replaced, "entry", "entries")}
                {facts?.coverage
                  ? ` · coverage ${fullTokens(facts.coverage.covered)} of ${fullTokens(facts.coverage.total)}`
                  : ""}
                {facts?.coverage?.probes ? ` · ${probesFigure(facts.coverage.probes)}` : ""}
              </button>
              {isOpen && (
                <div className="cp-history-body">
                  {facts && (
                    <p className="cp-note">
                      <CompactionFacts facts={facts} />
                    </p>
                  )}
                  {facts?.coverage?.probes && facts.coverage.probes.unanswered.length > 0 && (
                    <p className="cp-note" data-testid="history-probes">
                      Probes the summary did not answer: {facts.coverage.probes.unanswered.join(" ")}
                    </p>
                  )}
                  {facts?.coverage && facts.coverage.missing.length > 0 && (
                    <details className="cp-cov-group" data-testid="history-missing">
                      <summary>
                        Not in the summary when it was written ({fullTokens(facts.coverage.missing.length)}
                        {facts.coverage.missingOmitted
                          ? ` of ${fullTokens(facts.coverage.missing.length + facts.coverage.missingOmitted)}`
                          : ""}
                        )
                      </summary>
                      <ul>
                        {facts.coverage.missing.map((m) => (
                          <li key={m.key}>
                            {KIND_LABEL[m.kind]}: <SafeText text={m.text} />
                          </li>
                        ))}
                      </ul>
                    </details>
                  )}
                  <p className="cp-note">
                    Kept range starts at{" "}
                    {it.keptIndex >= 0
                      ? `row ${it.keptIndex + 1} (entry ${markInvisible(String(it.entry.firstKeptEntryId))})`
                      : "nothing (id not on the path)"}
                    .
                    {leaf?.id === it.entry.id && (
                      <button
                        type="button"
                        className="btn small"
                        onClick={() =>
                          void runUndo(services.compaction, model.sessionId, it.entry, model.path)
                        }
                      >
                        Undo this compaction
                      </button>
                    )}
                  </p>
                  {it.previous && (
                    <label className="cp-toggle">
                      <input type="checkbox" checked={diff} onChange={(e) => setDiff(e.target.checked)} />{" "}
                      compare with the previous summary
                    </label>
                  )}
                  {diff && it.previous ? (
                    <SummaryDiff before={it.previous.summary} after={it.entry.summary} />
                  ) : (
                    <RawToggle raw={() => compactionSummaryText(it.entry.summary)}>
                      <div className="cp-rendered">
                        <Markdown text={it.entry.summary} />
                      </div>
                    </RawToggle>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
