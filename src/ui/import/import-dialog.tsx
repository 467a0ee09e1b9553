/**
 * Asks what to do with a file that has problems (bad lines, invalid UTF-8, a broken tree) or
 * whose session id already exists: what would be stored, how many entries on the current path,
 * what the damage means, then import the valid entries, or cancel (nothing is written). With more
 * files to come in the same import, the answer to an existing id can be kept for all of them.
 */
import { useState } from "react";
import { describeDamage, describePath } from "../../services/import/import-report.ts";
import { type ImportAnswer, type ImportQuestion, useImportQuestion } from "../../store/import-store.ts";
import { Dialog } from "../common/dialog.tsx";
import { SafeText } from "../common/safe-text.tsx";
import { formatCountOf } from "../format.ts";

const SHOWN = 50;

export function ImportDialog() {
  const question = useImportQuestion((s) => s.question);
  // A new question (the next file) starts with the box unticked.
  return question ? (
    <Question key={`${question.fileName}:${question.remaining}`} question={question} />
  ) : null;
}

function Question({ question }: { question: ImportQuestion }) {
  const reply = useImportQuestion((s) => s.answer);
  const [forAll, setForAll] = useState(false);
  const answer = (a: ImportAnswer) => reply(a, forAll);
  const { problems, existingName } = question;
  const hasProblems = problems.length > 0;
  const title = hasProblems ? "This file has problems" : "This session is already here";
  return (
    <Dialog
      open
      name="import"
      title={title}
      onClose={() => reply("cancel")}
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
          <div data-testid="problem-summary">
            {describeDamage(problems).map((sentence) => (
              <p key={sentence}>{sentence}</p>
            ))}
          </div>
          <p data-testid="path-summary">
            <strong>{describePath(question.entryCount, question.path)}</strong>
          </p>
          <ol className="problem-list" aria-label="Problems, line by line">
            {problems.slice(0, SHOWN).map((p) => (
              <li key={`${p.line}:${p.kind}`}>
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
            {problems.length > SHOWN && (
              <li>… and {(problems.length - SHOWN).toLocaleString("en-US")} more</li>
            )}
          </ol>
          <p>Nothing is stored until you choose; Cancel import writes nothing.</p>
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
      {existingName !== undefined && question.remaining > 0 && (
        <label className="import-for-all">
          <input type="checkbox" checked={forAll} onChange={(e) => setForAll(e.target.checked)} /> Do the same
          for the other files of this import whose session is already here (
          {formatCountOf(question.remaining, "file")} still to come; a file with problems is still asked
          about)
        </label>
      )}
    </Dialog>
  );
}
