/**
 * Compaction settings inside the Settings dialog: when it fires (ask / auto / remind only / off,
 * and the trigger as window − reserve or a share of the window), for all sessions or for the open
 * session only; branch summaries on leaving a branch (ask / never), window, reserve, keep-recent
 * (empty: they follow the model; what does not fit the model is said under them, with the fix),
 * estimator, summarizer.
 */
import { useId, useState } from "react";
import type { TriggerSetting } from "../../core/compaction/trigger.ts";
import {
  modelLimits,
  normalizeProviderSettings,
  PROVIDER_SETTINGS_KEY,
} from "../../services/agent/agent-settings.ts";
import { watchSetting } from "../../services/common/settings-instance.ts";
import { fitSettings, typicalStartTokens } from "../../services/compaction/compaction-fit.ts";
import {
  COMPACTION_SETTINGS_KEY,
  type CompactionMode,
  type CompactionUserSettings,
  normalizeSettings,
  readSessionOverride,
  sessionSettingsKey,
  withSessionOverride,
} from "../../services/compaction/compaction-settings.ts";
import { appCompactionSettings } from "../../services/compaction/compaction-settings-instance.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { useLive } from "../data/use-live.ts";
import type { SessionSlotProps } from "../shell/slots.ts";
import { FitProblems } from "./fit-warning.tsx";
import { useCompactionModel } from "./use-compaction-model.ts";

const MODES: readonly (readonly [CompactionMode, string])[] = [
  ["ask", "Ask: open the review with a summary generating (default)"],
  ["auto", "Auto: compact and continue (Undo in the notice)"],
  ["remind", "Remind me only: the meter says so past the trigger; nothing opens by itself"],
  ["off", "Off: never compact by itself"],
];

/** Mode and trigger, for all sessions or for one session (its own choice over the others'). */
function WhenItFires({ sessionId }: { sessionId: string }) {
  const id = useId();
  const rawAll = useLive(() => watchSetting(COMPACTION_SETTINGS_KEY), []);
  const rawOwn = useLive(
    () => (sessionId ? watchSetting(sessionSettingsKey(sessionId)) : undefined),
    [sessionId],
  );
  const all = normalizeSettings(rawAll);
  const own = readSessionOverride(rawOwn);
  const hasOwn = Object.keys(own).length > 0;
  const [scope, setScope] = useState<"all" | "session">(hasOwn && sessionId ? "session" : "all");
  const shown = scope === "session" ? withSessionOverride(all, own) : all;
  const [percentDraft, setPercentDraft] = useState<string | null>(null);
  const toast = (message: string) => useUiStore.getState().pushToast({ kind: "error", message });
  const save = async (patch: Pick<Partial<CompactionUserSettings>, "mode" | "trigger">) => {
    const r =
      scope === "session"
        ? await appCompactionSettings.saveForSession(sessionId, {
            mode: shown.mode,
            trigger: shown.trigger,
            ...patch,
          })
        : await appCompactionSettings.save(patch);
    if (!r.ok) toast(r.error.message);
  };
  const setTrigger = (t: TriggerSetting) => void save({ trigger: t });
  const percent = shown.trigger.kind === "percent" ? shown.trigger.percent : 75;
  return (
    <div className="cp-when" data-testid="compaction-when">
      {sessionId && (
        <div role="radiogroup" aria-labelledby={`${id}-scope-title`} className="cp-scope">
          <span className="cp-group-title" id={`${id}-scope-title`}>
            Applies to
          </span>
          <label className="cp-radio">
            <input
              type="radio"
              name={`${id}-scope`}
              checked={scope === "all"}
              onChange={() => setScope("all")}
            />
            For all sessions
          </label>
          <label className="cp-radio">
            <input
              type="radio"
              name={`${id}-scope`}
              checked={scope === "session"}
              onChange={() => setScope("session")}
              data-testid="scope-session"
            />
            For this session only{hasOwn ? " (set)" : ""}
          </label>
          {scope === "session" && hasOwn && (
            <button
              type="button"
              className="link"
              onClick={() => void appCompactionSettings.saveForSession(sessionId, null)}
            >
              Use the settings for all sessions here
            </button>
          )}
        </div>
      )}
      <div role="radiogroup" aria-labelledby={`${id}-mode-title`}>
        <span className="cp-group-title" id={`${id}-mode-title`}>
          When the context passes the trigger
        </span>
        {MODES.map(([mode, text]) => (
          <label key={mode} className="cp-radio">
            <input
              type="radio"
              name={`${id}-mode`}
              value={mode}
              checked={shown.mode === mode}
              onChange={() => void save({ mode })}
            />
            {text}
          </label>
        ))}
      </div>
      <div role="radiogroup" aria-labelledby={`${id}-trigger-title`}>
        <span className="cp-group-title" id={`${id}-trigger-title`}>
          Where the trigger lies
        </span>
        <label className="cp-radio">
          <input
            type="radio"
            name={`${id}-trigger`}
            value="reserve"
            checked={shown.trigger.kind === "reserve"}
            onChange={() => setTrigger({ kind: "reserve" })}
          />
          Trigger at window − reserve (as pi sets it)
        </label>
        <label className="cp-radio">
          <input
            type="radio"
            name={`${id}-trigger`}
            value="percent"
            checked={shown.trigger.kind === "percent"}
            onChange={() => setTrigger({ kind: "percent", percent })}
          />
          Trigger at a share of the window:
          <input
            type="number"
            min={1}
            max={100}
            className="cp-percent"
            aria-label="Share of the window (%)"
            data-testid="trigger-percent"
            value={percentDraft ?? String(percent)}
            onChange={(e) => setPercentDraft(e.target.value)}
            onBlur={() => {
              const v = Number(percentDraft);
              setPercentDraft(null);
              if (percentDraft !== null && Number.isFinite(v) && v >= 1 && v <= 100)
                setTrigger({ kind: "percent", percent: Math.round(v) });
            }}
          />
          %
        </label>
      </div>
    </div>
  );
}

/** The fit shown in Settings: the open session's (as its meter reads it), else the default model's. */
function useShownFit(sessionId: string, s: CompactionUserSettings) {
  const model = useCompactionModel(sessionId);
  const rawProvider = useLive(() => watchSetting(PROVIDER_SETTINGS_KEY), []);
  if (model) return { fit: model.fit, contextWindow: model.contextWindow, modelId: model.modelId };
  const provider = normalizeProviderSettings(rawProvider);
  const f = fitSettings(s, modelLimits(provider, provider.model), typicalStartTokens());
  return { fit: f.fit, contextWindow: f.contextWindow, modelId: provider.model };
}

export function CompactionSettingsForm({ sessionId }: SessionSlotProps) {
  const raw = useLive(() => watchSetting(COMPACTION_SETTINGS_KEY), []);
  const s = normalizeSettings(raw);
  const fit = useShownFit(sessionId, s);
  const id = useId();
  const save = async (patch: Partial<CompactionUserSettings>) => {
    const r = await appCompactionSettings.save(patch);
    if (!r.ok) useUiStore.getState().pushToast({ kind: "error", message: r.error.message });
  };
  const num = (v: string) => (v.trim() === "" ? null : Number(v));
  return (
    <fieldset className="cp-settings" data-testid="compaction-settings">
      <legend className="settings-heading">Compaction</legend>
      <WhenItFires key={sessionId} sessionId={sessionId} />
      <div role="radiogroup" aria-labelledby={`${id}-branch-title`}>
        <span className="cp-group-title" id={`${id}-branch-title`}>
          When you move off a branch
        </span>
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
        Reserve tokens (threshold = window − reserve; empty = follows the model)
        <input
          type="number"
          min={0}
          data-testid="compaction-reserve"
          defaultValue={s.reserveTokens ?? ""}
          placeholder={`follows the model: ${fit.fit.reserveTokens.toLocaleString("en-US")}`}
          key={`r${s.reserveTokens}`}
          onBlur={(e) => void save({ reserveTokens: num(e.target.value) })}
        />
      </label>
      <FitProblems
        problems={fit.fit.problems}
        settings={["reserve", "trigger", "window"]}
        testId="fit-reserve"
      />
      <label>
        Keep recent tokens (empty = follows the model)
        <input
          type="number"
          min={0}
          data-testid="compaction-keep"
          defaultValue={s.keepRecentTokens ?? ""}
          placeholder={`follows the model: ${fit.fit.keepRecentTokens.toLocaleString("en-US")}`}
          key={`k${s.keepRecentTokens}`}
          onBlur={(e) => void save({ keepRecentTokens: num(e.target.value) })}
        />
      </label>
      <FitProblems problems={fit.fit.problems} settings={["keep", "output"]} testId="fit-keep" />
      <p className="cp-fit-note" data-testid="fit-summary">
        On {fit.modelId ? `“${fit.modelId}”` : "the default model"} (
        {fit.contextWindow.toLocaleString("en-US")}
        -token window): compaction starts past {fit.fit.threshold.toLocaleString("en-US")} tokens, keeps{" "}
        {fit.fit.keepRecentTokens.toLocaleString("en-US")}, replies get up to{" "}
        {fit.fit.outputBudget.toLocaleString("en-US")} tokens (less as the context fills).
      </p>
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
