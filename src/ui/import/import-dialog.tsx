/** Asks what to do with a file that has bad lines or whose session id already exists. */
import { useImportQuestion } from "../../store/import-store.ts";
import { Dialog } from "../common/dialog.tsx";
import { SafeText } from "../common/safe-text.tsx";

const SHOWN = 50;

export function ImportDialog() {
  const question = useImportQuestion((s) => s.question);
  const answer = useImportQuestion((s) => s.answer);
  if (!question) return null;
  const { problems, existingName } = question;
  const hasProblems = problems.length > 0;
  const title = hasProblems ? "Some lines could not be read" : "This session is already here";
  return (
    <Dialog
      open
      name="import"
      title={title}
      onClose={() => answer("cancel")}
      actions={
        <>
          <button type="button" className="btn" onClick={() => answer("cancel")}>
            Cancel import
          </button>
          {existingName !== undefined ? (
            <>
              <button type="button" className="btn" onClick={() => answer("copy")}>
                Import as a copy
              </button>
              <button type="button" className="btn danger" onClick={() => answer("replace")}>
                Replace the stored session
              </button>
            </>
          ) : (
            <button type="button" className="btn primary" onClick={() => answer("valid")}>
              Import the {question.entryCount.toLocaleString("en-US")} valid entries
            </button>
          )}
        </>
      }
    >
      <p>
        <strong>
          <SafeText text={question.fileName} />
        </strong>
        {question.sessionName ? (
          <>
            {" "}
            — “<SafeText text={question.sessionName.slice(0, 80)} />”
          </>
        ) : (
          ""
        )}
      </p>
      {hasProblems && (
        <>
          <p data-testid="problem-summary">
            {problems.length.toLocaleString("en-US")} {problems.length === 1 ? "line" : "lines"} could not be
            read (first:{" "}
            {problems
              .slice(0, 5)
              .map((p) => `line ${p.line}`)
              .join(", ")}
            ). They would be left out; the {question.entryCount.toLocaleString("en-US")} other entries are
            valid.
          </p>
          <ol className="problem-list" aria-label="Lines that could not be read">
            {problems.slice(0, SHOWN).map((p) => (
              <li key={p.line}>
                Line {p.line}: <SafeText text={p.reason} />
                {p.excerpt ? (
                  <>
                    {" "}
                    —{" "}
                    <code>
                      <SafeText text={p.excerpt.slice(0, 80)} />
                    </code>
                  </>
                ) : null}
              </li>
            ))}
            {problems.length > SHOWN && <li>… and {problems.length - SHOWN} more</li>}
          </ol>
        </>
      )}
      {existingName !== undefined && (
        <p>
          A stored session has the same id (“
          <SafeText text={existingName.slice(0, 80)} />
          ”). Replace it with this file
          {hasProblems ? " (its valid entries)" : ""}, or import this file as a copy with a new id?
        </p>
      )}
    </Dialog>
  );
}
