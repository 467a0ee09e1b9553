/**
 * The summary instructions: view, edit (a preset or your own words) and reset, for this session
 * or for all sessions. The summarizer gets them with every history summary; the focus text of the
 * review is added after them.
 */
import { useCallback, useEffect, useState } from "react";
import {
  DEFAULT_SUMMARY_INSTRUCTIONS,
  type InstructionsSource,
  instructionsLabel,
  presetOf,
  SUMMARY_PRESETS,
} from "../../core/compaction/instructions.ts";
import { appSummaryInstructions } from "../../services/compaction/summarizer-instance.ts";
import type { SummaryInstructionsState } from "../../services/compaction/summary-instructions.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { Dialog } from "../common/dialog.tsx";

type Scope = "session" | "global";

const SOURCE_TEXT: Record<InstructionsSource, string> = {
  session: "this session's own",
  global: "the instructions for all sessions",
  default: "Cutpoint's default",
};

export function SummaryInstructionsDialog(props: {
  /** The open session ("" when none: only "All sessions" is offered). */
  sessionId: string;
  scope: Scope;
  onClose: () => void;
}) {
  const { sessionId, onClose } = props;
  const [scope, setScope] = useState<Scope>(sessionId ? props.scope : "global");
  const [state, setState] = useState<SummaryInstructionsState | null>(null);
  const [draft, setDraft] = useState<string | null>(null);
  /** The text stored (or inherited) for the scope shown: the draft differs from it when unsaved. */
  const [saved, setSaved] = useState<string | null>(null);
  const toast = useUiStore((s) => s.pushToast);

  const reload = useCallback(
    async (which: Scope) => {
      const s = await appSummaryInstructions.load(sessionId || undefined);
      setState(s);
      const inherited = s.global?.text ?? DEFAULT_SUMMARY_INSTRUCTIONS;
      const text = which === "session" ? (s.session?.text ?? inherited) : inherited;
      setDraft(text);
      setSaved(text);
    },
    [sessionId],
  );
  useEffect(() => {
    void reload(scope);
  }, [reload, scope]);

  const save = async () => {
    if (draft === null) return;
    const r = await appSummaryInstructions.save(
      scope === "session" ? { kind: "session", sessionId } : { kind: "global" },
      draft,
    );
    if (!r.ok) toast({ kind: "error", message: r.error.message });
    else onClose();
  };
  const inherit = async () => {
    const r = await appSummaryInstructions.save({ kind: "session", sessionId }, null);
    if (!r.ok) toast({ kind: "error", message: r.error.message });
    else await reload("session");
  };
  const current = draft ?? "";
  return (
    <Dialog
      open
      name="summary-instructions"
      title="Summary instructions"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn" onClick={() => setDraft(DEFAULT_SUMMARY_INSTRUCTIONS)}>
            Reset to default
          </button>
          {scope === "session" && state?.session && (
            <button type="button" className="btn" onClick={() => void inherit()}>
              Use the ones for all sessions
            </button>
          )}
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn primary" disabled={draft === null} onClick={() => void save()}>
            Save
          </button>
        </>
      }
    >
      <fieldset className="si-scope">
        <legend>Applies to</legend>
        <label>
          <input
            type="radio"
            name="si-scope"
            value="session"
            checked={scope === "session"}
            disabled={!sessionId}
            onChange={() => setScope("session")}
          />
          This session
        </label>
        <label>
          <input
            type="radio"
            name="si-scope"
            value="global"
            checked={scope === "global"}
            onChange={() => setScope("global")}
          />
          All sessions
        </label>
      </fieldset>
      {state && (
        <p className="agent-faint" data-testid="si-in-use">
          {sessionId
            ? `This session summarizes with ${SOURCE_TEXT[state.resolved.source]}: ${instructionsLabel(state.resolved.text)}.`
            : `New summaries use ${SOURCE_TEXT[state.global ? "global" : "default"]}: ${instructionsLabel(state.global?.text ?? DEFAULT_SUMMARY_INSTRUCTIONS)}.`}
        </p>
      )}
      <fieldset className="si-presets">
        <legend className="sr-only">Presets</legend>
        {SUMMARY_PRESETS.map((p) => (
          <button
            key={p.id}
            type="button"
            className="btn small"
            aria-pressed={presetOf(current) === p.id}
            title={p.hint}
            onClick={() => setDraft(p.text)}
          >
            {p.label}
          </button>
        ))}
        {presetOf(current) === "custom" && (
          <span className="si-custom" data-testid="si-own">
            Your own
          </span>
        )}
        {draft !== null && draft !== saved && (
          <span className="si-custom" data-testid="si-unsaved">
            · not saved yet
          </span>
        )}
      </fieldset>
      <textarea
        className="agent-prompt-editor si-editor"
        aria-label="Summary instructions"
        rows={14}
        value={current}
        onChange={(e) => setDraft(e.target.value)}
      />
      <p className="agent-faint">
        Sent after the conversation with every history summary (an update first asks to keep what still
        matters). The focus you type in the review is added after them. The first part of a split turn has its
        own fixed instructions.
      </p>
    </Dialog>
  );
}
