/** Compaction settings inside the Settings dialog: when (ask / auto / off), branch summaries on leaving a branch (ask / never), window, reserve, keep-recent, estimator, summarizer. */
import { useLiveQuery } from "dexie-react-hooks";
import { useId } from "react";
import { db } from "../../db/instance.ts";
import {
  COMPACTION_SETTINGS_KEY,
  type CompactionUserSettings,
  normalizeSettings,
  saveCompactionSettings,
} from "../../services/compaction-settings.ts";
import { useUiStore } from "../../store/ui-store.ts";

export function CompactionSettingsForm() {
  const raw = useLiveQuery(() => db.settings.get(COMPACTION_SETTINGS_KEY), [], undefined);
  const s = normalizeSettings(raw?.value);
  const id = useId();
  const save = async (patch: Partial<CompactionUserSettings>) => {
    const r = await saveCompactionSettings(db, patch);
    if (!r.ok) useUiStore.getState().pushToast({ kind: "error", message: r.error.message });
  };
  const num = (v: string) => (v.trim() === "" ? null : Number(v));
  return (
    <fieldset className="cp-settings" data-testid="compaction-settings">
      <legend>Compaction</legend>
      <div role="radiogroup" aria-label="When the context passes the threshold">
        {(
          [
            ["ask", "Ask: open the preview with a summary generating (default)"],
            ["auto", "Auto: compact and continue (Undo in the toast)"],
            ["off", "Off: never compact by itself"],
          ] as const
        ).map(([mode, text]) => (
          <label key={mode} className="cp-radio">
            <input
              type="radio"
              name={`${id}-mode`}
              value={mode}
              checked={s.mode === mode}
              onChange={() => void save({ mode })}
            />
            {text}
          </label>
        ))}
      </div>
      <div role="radiogroup" aria-label="When you move off a branch">
        {(
          [
            ["ask", "Leaving a branch: offer a branch summary (default)"],
            ["never", "Leaving a branch: just move, no summary"],
          ] as const
        ).map(([mode, text]) => (
          <label key={mode} className="cp-radio">
            <input
              type="radio"
              name={`${id}-branch`}
              value={`branch-${mode}`}
              checked={s.branchSummary === mode}
              onChange={() => void save({ branchSummary: mode })}
            />
            {text}
          </label>
        ))}
      </div>
      <label>
        Context window override (tokens; empty = the model's)
        <input
          type="number"
          min={1024}
          data-testid="compaction-window"
          defaultValue={s.contextWindow ?? ""}
          key={`w${s.contextWindow}`}
          onBlur={(e) => void save({ contextWindow: num(e.target.value) })}
        />
      </label>
      <label>
        Reserve tokens (threshold = window − reserve)
        <input
          type="number"
          min={0}
          data-testid="compaction-reserve"
          defaultValue={s.reserveTokens}
          key={`r${s.reserveTokens}`}
          onBlur={(e) => void save({ reserveTokens: Number(e.target.value) })}
        />
      </label>
      <label>
        Keep recent tokens
        <input
          type="number"
          min={0}
          data-testid="compaction-keep"
          defaultValue={s.keepRecentTokens}
          key={`k${s.keepRecentTokens}`}
          onBlur={(e) => void save({ keepRecentTokens: Number(e.target.value) })}
        />
      </label>
      <label>
        Token estimator
        <select
          value={s.estimator}
          onChange={(e) => void save({ estimator: e.target.value as "pi" | "tokenizer" })}
        >
          <option value="pi">pi's chars/4 (matches pi's decisions)</option>
          <option value="tokenizer">Tokenizer (gpt-tokenizer, loaded on demand)</option>
        </select>
      </label>
      <label>
        Summarizer model (empty = the session's model)
        <input
          defaultValue={s.summarizerModel}
          key={`m${s.summarizerModel}`}
          onBlur={(e) => void save({ summarizerModel: e.target.value })}
        />
      </label>
    </fieldset>
  );
}
