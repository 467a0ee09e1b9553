/**
 * Provider settings (in the Settings dialog): preset or custom base URL, the API key (kept only in
 * this browser, shown masked, revealable, removable), the default model (listed from GET /models
 * when the endpoint allows it, else typed), context window / max output / reasoning per model with
 * known defaults and overrides, the default thinking level, and "Test connection".
 */
import { useCallback, useEffect, useId, useState } from "react";
import { THINKING_LEVELS } from "../../core/agent/settings.ts";
import { db } from "../../db/instance.ts";
import { listModels, testConnection } from "../../llm/connection.ts";
import { isMixedContent } from "../../llm/errors.ts";
import { PROVIDER_PRESETS, type ProviderId, providerPreset } from "../../llm/providers.ts";
import {
  getApiKey,
  maskKey,
  modelLimits,
  type ProviderSettings,
  removeApiKey,
  saveProviderSettings,
  setApiKey,
  withOverride,
  withProvider,
} from "../../services/agent-settings.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { markInvisible } from "../common/invisible.ts";
import { SafeText } from "../common/safe-text.tsx";
import { useProviderSettings } from "./use-agent.ts";

type Models =
  | { state: "idle" | "loading" }
  | { state: "ok"; models: string[] }
  | { state: "error"; message: string };
type TestResult = { ok: boolean; message: string } | null;

function ApiKeyField(props: { providerId: ProviderId; needsKey: boolean; onChanged: () => void }) {
  const { providerId, needsKey, onChanged } = props;
  const id = useId();
  const toast = useUiStore((s) => s.pushToast);
  const [stored, setStored] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const [reveal, setReveal] = useState(false);
  const reload = useCallback(() => {
    void getApiKey(db, providerId).then((k) => setStored(k));
  }, [providerId]);
  useEffect(() => {
    setReveal(false);
    setDraft("");
    reload();
  }, [reload]);

  const save = async () => {
    if (draft.trim() === "") return;
    const r = await setApiKey(db, providerId, draft);
    if (!r.ok) toast({ kind: "error", message: r.error.message });
    setDraft("");
    reload();
    onChanged();
  };
  const remove = async () => {
    const r = await removeApiKey(db, providerId);
    if (!r.ok) toast({ kind: "error", message: r.error.message });
    setReveal(false);
    reload();
    onChanged();
  };

  return (
    <div className="agent-field">
      <label htmlFor={id}>API key{needsKey ? "" : " (optional for local servers)"}</label>
      {stored ? (
        <div className="agent-row">
          <output id={id} className="agent-key" data-testid="api-key-display" aria-label="Stored API key">
            {reveal ? stored : maskKey(stored)}
          </output>
          <button
            type="button"
            className="btn small"
            aria-pressed={reveal}
            onClick={() => setReveal(!reveal)}
          >
            {reveal ? "Hide" : "Reveal"}
          </button>
          <button type="button" className="btn small danger" onClick={() => void remove()}>
            Remove key
          </button>
        </div>
      ) : (
        <div className="agent-row">
          <input
            id={id}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={draft}
            placeholder="paste the key"
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                void save();
              }
            }}
          />
          <button
            type="button"
            className="btn small"
            disabled={draft.trim() === ""}
            onClick={() => void save()}
          >
            Save key
          </button>
        </div>
      )}
      <p className="agent-hint">
        Stored only in this browser (IndexedDB). It is sent only to the endpoint above, in the Authorization
        header, and never appears in exported files.
        {providerPreset(providerId).keyUrl && (
          <>
            {" "}
            <a href={providerPreset(providerId).keyUrl} target="_blank" rel="noreferrer noopener">
              Get a key
            </a>
          </>
        )}
      </p>
    </div>
  );
}

function NumberOverride(props: {
  label: string;
  value: number;
  overridden: boolean;
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
          <button type="button" className="link" onClick={() => props.onChange(undefined)}>
            reset
          </button>
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
      const r = await saveProviderSettings(db, next);
      if (!r.ok) toast({ kind: "error", message: r.error.message });
    },
    [toast],
  );

  const loadModels = useCallback(async (s: ProviderSettings) => {
    if (!/^https?:\/\//i.test(s.baseUrl)) return;
    setModels({ state: "loading" });
    const apiKey = await getApiKey(db, s.providerId);
    const r = await listModels({ baseUrl: s.baseUrl, apiKey, provider: s.providerId });
    setModels(r.ok ? { state: "ok", models: r.models } : { state: "error", message: r.error });
  }, []);

  const providerId = settings?.providerId;
  const baseUrl = settings?.baseUrl;
  // biome-ignore lint/correctness/useExhaustiveDependencies: list again when the endpoint changes.
  useEffect(() => {
    if (settings) void loadModels(settings);
    setTest(null);
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
    const apiKey = await getApiKey(db, settings.providerId);
    const r = await testConnection(
      { baseUrl: settings.baseUrl, apiKey, provider: settings.providerId },
      settings.model ? { model: settings.model } : {},
    );
    setTesting(false);
    if (!r.ok) return setTest({ ok: false, message: r.message });
    setModels({ state: "ok", models: r.models });
    const count = `${r.models.length} model${r.models.length === 1 ? "" : "s"} listed`;
    const found =
      r.modelFound === true
        ? ` “${settings.model}” is among them.`
        : r.modelFound === false
          ? ` But “${settings.model}” is not listed: check the name, or whether this key may use it.`
          : "";
    setTest({ ok: r.modelFound !== false, message: `Connected: ${count}.${found}` });
  };

  return (
    <form className="agent-settings" aria-label="Model provider" onSubmit={(e) => e.preventDefault()}>
      <h3>Model provider</h3>
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
        {mixed && (
          <p className="agent-flag error" role="alert">
            This page is served over https, so the browser blocks a plain-http endpoint (mixed content). Use
            an https URL, or run Cutpoint from http://localhost.
          </p>
        )}
        {preset.corsHint && <p className="agent-hint">{preset.corsHint}</p>}
      </div>
      <ApiKeyField
        providerId={settings.providerId}
        needsKey={preset.needsKey}
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
        <p className="agent-hint" data-testid="models-status">
          {models.state === "loading" && "Listing the endpoint's models…"}
          {models.state === "ok" &&
            (models.models.length > 0
              ? `${models.models.length} models listed by the endpoint.`
              : "The endpoint lists no models: type the model id.")}
          {models.state === "error" && (
            <SafeText text={`Could not list models (${models.message}) Type the model id instead.`} />
          )}{" "}
          <button type="button" className="link" onClick={() => void loadModels(settings)}>
            List again
          </button>
        </p>
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
            onChange={(v) => void save(withOverride(settings, settings.model, "contextWindow", v))}
          />
          <NumberOverride
            label="Max output tokens"
            value={limits.maxOutput}
            overridden={limits.overridden.maxOutput}
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
        <p className={`agent-flag ${test.ok ? "ok" : "error"}`} role="status" data-testid="connection-result">
          <SafeText text={test.message} />
        </p>
      )}
    </form>
  );
}
