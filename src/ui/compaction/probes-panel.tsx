/** The review's probes: questions the summarized range answers, each with its known answer and whether the draft answers it. */
import { type ProbeReport, probeNote, probesFigure } from "../../core/coverage/coverage-probes.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { SafeText } from "../common/safe-text.tsx";

/** A text with its code spans (`x`) shown as code, the rest as text. */
function WithCode({ text }: { text: string }) {
  const parts = text.split(/`([^`\n]+)`/);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, in order
          <code key={i}>
            <SafeText text={part} />
          </code>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, in order
          <SafeText key={i} text={part} />
        ),
      )}
    </>
  );
}

export function ProbesPanel({ report }: { report: ProbeReport | undefined }) {
  const reveal = useUiStore((s) => s.revealEntry);
  if (!report || report.total === 0) return null;
  return (
    <section className="cp-probes" aria-label="Probes" data-testid="probes">
      <div className="cp-cov-head">
        <h3>Probes</h3>
        <span
          className={`cp-cov-figure${report.answered === report.total ? " full" : ""}`}
          data-testid="probes-figure"
          aria-live="polite"
        >
          {probesFigure(report)}
        </span>
      </div>
      <p className="cp-note">
        Questions the summarized part answers, asked of the summary alone, without a model.
      </p>
      <ul>
        {report.probes.map((p) => (
          <li
            key={p.id}
            className={`cp-probe${p.answered ? " answered" : ""}`}
            data-testid="probe"
            data-probe={p.id}
            data-answered={p.answered ? "yes" : "no"}
          >
            <span className="cp-probe-mark" role="img" aria-label={p.answered ? "answered" : "not answered"}>
              {p.answered ? "✓" : "✗"}
            </span>
            <span className="cp-probe-body">
              <span className="cp-probe-question">{p.question}</span>{" "}
              <span className="cp-probe-note" data-testid="probe-note">
                {probeNote(p)}
              </span>
              <span className="cp-probe-expected" title="The answer the session holds">
                <WithCode text={p.expected} />
              </span>
            </span>
            {p.entryId !== undefined && (
              <button
                type="button"
                className="link"
                onClick={() => reveal(p.entryId!)}
                title="Show the entry the answer comes from in the timeline"
              >
                entry
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
