/**
 * The review's coverage check: "38 of 41 items" that the draft mentions, the missing ones grouped
 * by kind, each linked to the entry where it appears, with one click to add it to the summary (in
 * its section) or to dismiss it; dismissed items can be restored. Deterministic, no model.
 */
import type { CoverageItem, CoverageReport } from "../../core/coverage/coverage.ts";
import { coverageFigure } from "../../core/coverage/coverage.ts";
import { COVERAGE_KINDS, type CoverageKind } from "../../core/coverage/coverage-extract.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { markInvisible } from "../common/invisible.ts";
import { SafeText } from "../common/safe-text.tsx";
import { middleEllipsis, plural } from "./format-tokens.ts";

export const KIND_LABEL: Readonly<Record<CoverageKind, string>> = {
  file: "Files",
  command: "Commands",
  error: "Errors",
  identifier: "Names",
  value: "Values",
  url: "Links",
  instruction: "Instructions",
  todo: "To-dos",
};

const shown = (i: CoverageItem) => (i.kind === "file" ? middleEllipsis(i.text) : i.text);

function ItemRow({
  item,
  onAdd,
  onDismiss,
  onRestore,
}: {
  item: CoverageItem;
  onAdd?: (i: CoverageItem) => void;
  onDismiss?: (i: CoverageItem) => void;
  onRestore?: (i: CoverageItem) => void;
}) {
  const reveal = useUiStore((s) => s.revealEntry);
  const at = item.entryIds[0];
  return (
    <li className="cp-cov-item" data-testid="coverage-item" data-kind={item.kind}>
      <span className="cp-cov-text" title={markInvisible(item.text)}>
        <SafeText text={shown(item)} />
      </span>
      <span className="cp-cov-actions">
        {at !== undefined && (
          <button
            type="button"
            className="link"
            onClick={() => reveal(at)}
            title="Show the entry where it appears in the timeline"
          >
            entry
          </button>
        )}
        {onAdd && (
          <button type="button" className="btn small" onClick={() => onAdd(item)} data-testid="coverage-add">
            Add
          </button>
        )}
        {onDismiss && (
          <button
            type="button"
            className="btn small ghost"
            onClick={() => onDismiss(item)}
            data-testid="coverage-dismiss"
          >
            Dismiss
          </button>
        )}
        {onRestore && (
          <button type="button" className="btn small ghost" onClick={() => onRestore(item)}>
            Restore
          </button>
        )}
      </span>
    </li>
  );
}

/** "Check with model": available when a summarizer is set up. */
export interface ModelCheckState {
  status: "idle" | "asking" | "done" | "failed";
  message: string | null;
  run: () => void;
}

export function CoveragePanel({
  report,
  modelCheck,
  onAdd,
  onAddAll,
  onDismiss,
  onRestore,
}: {
  report: CoverageReport | undefined;
  modelCheck: ModelCheckState | undefined;
  onAdd: (item: CoverageItem) => void;
  onAddAll: (items: CoverageItem[]) => void;
  onDismiss: (item: CoverageItem) => void;
  onRestore: (item: CoverageItem) => void;
}) {
  if (!report)
    return (
      <section className="cp-coverage" aria-label="Coverage check" data-testid="coverage">
        <p className="cp-note">Checking what the summary covers…</p>
      </section>
    );
  const missing = report.items.filter((i) => !i.covered && !i.dismissed && !i.resolved);
  const dismissed = report.items.filter((i) => i.dismissed);
  const resolved = report.items.filter((i) => i.resolved && !i.dismissed);
  const figure = coverageFigure(report);
  return (
    <section className="cp-coverage" aria-label="Coverage check" data-testid="coverage">
      <div className="cp-cov-head">
        <h3>Coverage</h3>
        <span
          className={`cp-cov-figure${missing.length === 0 ? " full" : ""}`}
          data-testid="coverage-figure"
          aria-live="polite"
        >
          {figure}
        </span>
        {missing.length > 1 && (
          <button type="button" className="btn small" onClick={() => onAddAll(missing)}>
            Add all {missing.length}
          </button>
        )}
        {modelCheck && (
          <button
            type="button"
            className="btn small"
            disabled={modelCheck.status === "asking"}
            onClick={modelCheck.run}
            data-testid="coverage-model-check"
            title="Ask the summarizer which of the person's requests the summary leaves out"
          >
            {modelCheck.status === "asking" ? "Asking the model…" : "Check with model"}
          </button>
        )}
      </div>
      {modelCheck?.message && (
        <p
          className={modelCheck.status === "failed" ? "cp-error" : "cp-note"}
          role={modelCheck.status === "failed" ? "alert" : "status"}
          data-testid="coverage-model-result"
        >
          <SafeText text={modelCheck.message} />
        </p>
      )}
      <p className="cp-note">
        Key items are files changed, errors still open, the person's rules and names, and open to-dos; files,
        commands, names, links and values of the summarized range are counted in all. Checked without a model.
      </p>
      {missing.length === 0 ? (
        <p className="cp-note" data-testid="coverage-complete">
          The summary mentions every item.
        </p>
      ) : (
        COVERAGE_KINDS.map((kind) => {
          const list = missing.filter((i) => i.kind === kind);
          if (list.length === 0) return null;
          return (
            <details
              key={kind}
              className="cp-cov-group"
              open={list.length <= 8}
              data-testid={`coverage-${kind}`}
            >
              <summary>
                {KIND_LABEL[kind]}: {plural(list.length, "missing", "missing")} of {report.byKind[kind].total}
              </summary>
              <ul>
                {list.map((i) => (
                  <ItemRow key={i.key} item={i} onAdd={onAdd} onDismiss={onDismiss} />
                ))}
              </ul>
            </details>
          );
        })
      )}
      {resolved.length > 0 && (
        <details className="cp-cov-group" data-testid="coverage-resolved">
          <summary>Resolved later in the range ({resolved.length}), not counted</summary>
          <ul>
            {resolved.map((i) => (
              <ItemRow key={i.key} item={i} />
            ))}
          </ul>
        </details>
      )}
      {dismissed.length > 0 && (
        <details className="cp-cov-group">
          <summary>Dismissed ({dismissed.length})</summary>
          <ul>
            {dismissed.map((i) => (
              <ItemRow key={i.key} item={i} onRestore={onRestore} />
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
