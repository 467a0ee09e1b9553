/**
 * Provider settings (in the Settings dialog): preset or custom base URL, the API key (key-field.tsx:
 * bound to the base URL's origin), the default model (listed from GET /models when the endpoint
 * allows it, else typed), context window / max output / reasoning per model with known defaults and
 * overrides, the default thinking level, and "Test connection". Nothing is requested before the
 * person has chosen a provider; models are listed on open only when no prompt is needed for it.
 */
import { useCallback, useEffect, useId, useState } from "react";
import { THINKING_LEVELS } from "../../core/agent/settings.ts";
import { checkBaseUrl } from "../../services/agent/agent-base-url.ts";
import {
  modelLimits,
  type ProviderSettings,
  providerChosen,
  withOverride,
  withProvider,
} from "../../services/agent/agent-settings.ts";
import { listProviderModels, testProviderConnection } from "../../services/agent/endpoint-checks.ts";
import {
  isMixedContent,
  NO_PROVIDER,
  PROVIDER_PRESETS,
  type ProviderId,
  providerPreset,
} from "../../services/agent/provider-facts.ts";
import { providerSettings } from "../../services/agent/provider-instance.ts";
import { appKeys } from "../../services/keys/keys-instance.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { ErrorWords } from "../common/error-words.tsx";
import { markInvisible } from "../common/invisible.ts";
import { SafeText } from "../common/safe-text.tsx";
import { ApiKeyField } from "./key-field.tsx";
import { useProviderSettings } from "./use-agent.ts";

type Models =
  | { state: "idle" | "loading" }
  | { state: "ok"; models: string[] }
  | { state: "error"; message: string };
type TestResult = { ok: boolean; message: string } | null;

function NumberOverride(props: {
  label: string;
  value: number;
  overridden: boolean;
  /** The value came from pi's settings.json or models.json. */
  fromPi?: boolean;
  onChange: (v: number | undefined) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const commit = () => {
    if (draft === null) return;
    const n = Number(draft.replace(/[_,\s]/g, ""));
    setDraft(null);
    props.onChange(draft.trim() === "" || !Number.isInteger(n) || n <= 0 ? undefined : n);
  };
  return (
    <div className="agent-field small">
      <label htmlFor={id}>{props.label}</label>
      <div className="agent-row">
        <input
          id={id}
          inputMode="numeric"
          value={draft ?? String(props.value)}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => e.key === "Enter" && commit()}
        />
        {props.overridden ? (
          <>
            {props.fromPi && <span className="agent-faint">from pi's files</span>}
            <button type="button" className="link" onClick={() => props.onChange(undefined)}>
              reset
            </button>
          </>
        ) : (
          <span className="agent-faint">default</span>
        )}
      </div>
    </div>
  );
}

export function ProviderSettingsForm() {
  const settings = useProviderSettings();
  const toast = useUiStore((s) => s.pushToast);
  const [baseDraft, setBaseDraft] = useState<string | null>(null);
  const [models, setModels] = useState<Models>({ state: "idle" });
  const [other, setOther] = useState(false);
  const [test, setTest] = useState<TestResult>(null);
  const [testing, setTesting] = useState(false);
  const ids = { provider: useId(), base: useId(), model: useId(), modelText: useId(), thinking: useId() };

  const save = useCallback(
    async (next: ProviderSettings) => {
      const r = await providerSettings.save(next);
      if (!r.ok) toast({ kind: "error", message: r.error.message });
    },
    [toast],
  );

  const loadModels = useCallback(async (s: ProviderSettings) => {
    if (!providerChosen(s) || !/^https?:\/\//i.test(s.baseUrl)) return;
    setModels({ state: "loading" });
    const r = await listProviderModels(s);
    setModels(r.ok ? { state: "ok", models: r.models } : { state: "error", message: r.error });
  }, []);

  const providerId = settings?.providerId;
  const baseUrl = settings?.baseUrl;
  // On open and when the endpoint changes: list only for a chosen provider, and only when that
  // needs no prompt and no key is missing (a key saved for another origin is never sent).
  // biome-ignore lint/correctness/useExhaustiveDependencies: list again when the endpoint changes.
  useEffect(() => {
    setTest(null);
    setModels({ state: "idle" });
    if (!settings || !providerChosen(settings)) return;
    const current = settings;
    void appKeys.status(current.baseUrl).then((k) => {
      const ready = k.key ? !k.key.locked : !providerPreset(current.providerId).needsKey;
      if (ready) void loadModels(current);
    });
  }, [providerId, baseUrl, loadModels]);

  if (!settings) return <p>Loading settings…</p>;
  const preset = providerPreset(settings.providerId);
  const limits = settings.model ? modelLimits(settings, settings.model) : undefined;
  const mixed = isMixedContent(settings.baseUrl, location.protocol);
  const listed = models.state === "ok" && models.models.length > 0 ? models.models : null;
  const showSelect = listed !== null && !other && (settings.model === "" || listed.includes(settings.model));

  const runTest = async () => {
    setTesting(true);
    setTest(null);
    const { withKey, result: r } = await testProviderConnection(settings);
    setTesting(false);
    // What was tested, and with which key (none given is said plainly: a listing alone proves little).
    const what = `Tested: listing the models at ${settings.baseUrl.replace(/\/+$/, "")}/models, ${
      withKey ? "with the key saved for this address" : "without a key (none is saved for this address)"
    }.`;
    const noKey = withKey
      ? ""
      : preset.needsKey
        ? " No key was given: this provider needs one for messages, so save it above and test again."
        : " No key was given; this server answered without one.";
    if (!r.ok) return setTest({ ok: false, message: `${what} ${r.message}${noKey}` });
    setModels({ state: "ok", models: r.models });
    const count = `${r.models.length} model${r.models.length === 1 ? "" : "s"} listed`;
    const found =
      r.modelFound === true
        ? ` “${settings.model}” is among them.`
        : r.modelFound === false
          ? ` But “${settings.model}” is not listed: check the name, or whether this key may use it.`
          : "";
    setTest({
      ok: r.modelFound !== false && (withKey || !preset.needsKey),
      message: `${what} ${!withKey && preset.needsKey ? "The endpoint answered" : "Connected"}: ${count}.${found}${noKey}`,
    });
  };

  return (
    <form className="agent-settings" aria-label="Model provider" onSubmit={(e) => e.preventDefault()}>
      <h3 className="settings-heading">Model provider</h3>
      <div className="agent-field">
        <label htmlFor={ids.provider}>Provider</label>
        <select
          id={ids.provider}
          value={settings.providerId}
          onChange={(e) => {
            setBaseDraft(null);
            setOther(false);
            void save(withProvider(settings, e.target.value as ProviderId));
          }}
        >
          {settings.providerId === NO_PROVIDER && (
            <option value={NO_PROVIDER} disabled>
              Choose a provider…
            </option>
          )}
          {PROVIDER_PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <div className="agent-field">
        <label htmlFor={ids.base}>Base URL</label>
        <input
          id={ids.base}
          type="url"
          spellCheck={false}
          placeholder="https://host/v1"
          value={baseDraft ?? settings.baseUrl}
          onChange={(e) => setBaseDraft(e.target.value)}
          onBlur={() => {
            if (baseDraft !== null && baseDraft.trim() !== settings.baseUrl) {
              void save({ ...settings, baseUrl: baseDraft.trim() });
            }
            setBaseDraft(null);
          }}
          onKeyDown={(e) => e.key === "Enter" && e.currentTarget.blur()}
        />
        <p className="agent-hint">
          OpenAI-compatible: the part before /chat/completions (usually ends in /v1).
        </p>
        {checkBaseUrl(baseDraft ?? settings.baseUrl).map((p) => (
          <p key={p.kind} className="agent-flag error" role="alert" data-testid="base-url-problem">
            {p.message}{" "}
            {p.fix && (
              <button
                type="button"
                className="btn small"
                // Keeps the focus in the field: its blur would save what was typed first.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => {
                  setBaseDraft(null);
                  void save({ ...settings, baseUrl: p.fix ?? settings.baseUrl });
                }}
              >
                Use <SafeText text={p.fix} />
              </button>
            )}
          </p>
        ))}
        {mixed && (
          <p className="agent-flag error" role="alert">
            This page is served over https, so the browser blocks a plain-http endpoint (mixed content). Use
            an https URL, or run Cutpoint from http://localhost.
          </p>
        )}
        {preset.corsHint && <p className="agent-hint">{preset.corsHint}</p>}
      </div>
      {!providerChosen(settings) ? (
        <p className="agent-hint" data-testid="no-provider">
          Choose a provider or type a base URL. Nothing is contacted before that.
        </p>
      ) : (
        <>
          <ApiKeyField
            baseUrl={settings.baseUrl}
            needsKey={preset.needsKey}
            keyUrl={preset.keyUrl}
            onChanged={() => void loadModels(settings)}
          />
          <div className="agent-field">
            <label htmlFor={showSelect ? ids.model : ids.modelText}>Default model</label>
            {showSelect ? (
              <select
                id={ids.model}
                value={settings.model}
                onChange={(e) => {
                  if (e.target.value === "__other") setOther(true);
                  else void save({ ...settings, model: e.target.value });
                }}
              >
                <option value="">Choose a model…</option>
                {listed.map((m) => (
                  <option key={m} value={m}>
                    {markInvisible(m)}
                  </option>
                ))}
                <option value="__other">Other (type a name)…</option>
              </select>
            ) : (
              <div className="agent-row">
                <input
                  id={ids.modelText}
                  spellCheck={false}
                  placeholder="model id, e.g. gpt-4o-mini"
                  defaultValue={settings.model}
                  key={`${settings.providerId}-${settings.model}`}
                  onBlur={(e) => {
                    const m = e.target.value.trim();
                    if (m !== settings.model) void save({ ...settings, model: m });
                  }}
                  onKeyDown={(e) => e.key === "Enter" && e.currentTarget.blur()}
                />
                {listed && (
                  <button type="button" className="link" onClick={() => setOther(false)}>
                    pick from the list
                  </button>
                )}
              </div>
            )}
            <div className="agent-hint" data-testid="models-status">
              {models.state === "loading" && "Listing the endpoint's models…"}
              {models.state === "ok" &&
                (models.models.length > 0
                  ? `${models.models.length} models listed by the endpoint.`
                  : "The endpoint lists no models: type the model id.")}
              {models.state === "error" && (
                <>
                  Could not list models: <ErrorWords text={models.message} /> Type the model id instead.
                </>
              )}{" "}
              {models.state === "idle" && "Not listed yet."}{" "}
              <button type="button" className="link" onClick={() => void loadModels(settings)}>
                {models.state === "idle" ? "List models" : "List again"}
              </button>
            </div>
          </div>
          {limits && (
            <fieldset className="agent-limits">
              <legend>
                Limits of “<SafeText text={settings.model} />”{" "}
                {limits.known ? "(known model)" : "(unknown model: defaults)"}
              </legend>
              <NumberOverride
                label="Context window (tokens)"
                value={limits.contextWindow}
                overridden={limits.overridden.contextWindow}
                fromPi={limits.fromPi.includes("contextWindow")}
                onChange={(v) => void save(withOverride(settings, settings.model, "contextWindow", v))}
              />
              <NumberOverride
                label="Max output tokens"
                value={limits.maxOutput}
                overridden={limits.overridden.maxOutput}
                fromPi={limits.fromPi.includes("maxOutput")}
                onChange={(v) => void save(withOverride(settings, settings.model, "maxOutput", v))}
              />
              <label className="agent-check">
                <input
                  type="checkbox"
                  checked={limits.reasoning}
                  onChange={(e) =>
                    void save(withOverride(settings, settings.model, "reasoning", e.target.checked))
                  }
                />
                Reasoning model (send the thinking level as reasoning_effort)
              </label>
            </fieldset>
          )}
          <div className="agent-field">
            <label htmlFor={ids.thinking}>Default thinking level</label>
            <select
              id={ids.thinking}
              value={settings.thinkingLevel}
              onChange={(e) => void save({ ...settings, thinkingLevel: e.target.value })}
            >
              {THINKING_LEVELS.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
            <p className="agent-hint">
              New sessions start with it; each session can change it (recorded in the session).
            </p>
          </div>
          <div className="agent-row">
            <button type="button" className="btn" disabled={testing} onClick={() => void runTest()}>
              {testing ? "Testing…" : "Test connection"}
            </button>
          </div>
          {test && (
            <div
              className={`agent-flag ${test.ok ? "ok" : "error"}`}
              role="status"
              data-testid="connection-result"
            >
              <ErrorWords text={test.message} />
            </div>
          )}
        </>
      )}
    </form>
  );
}
