/**
 * Agent settings kept in this browser (the Dexie `settings` table): the provider (preset or
 * custom base URL), the default model and thinking level, per-model limit overrides, API keys
 * (one per provider, never exported, logged or put in a URL) and the per-session system prompt.
 *
 * Read loose, write strict: `normalizeProviderSettings` accepts anything stored earlier and fills
 * defaults, so a damaged or older value never breaks the app.
 */
import { THINKING_LEVELS } from "../core/agent/settings.ts";
import { type CutpointDb, deleteSetting, getSetting, type Result, setSetting } from "../db/index.ts";
import {
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MAX_OUTPUT,
  modelInfo,
  PROVIDER_PRESETS,
  type ProviderId,
  providerPreset,
} from "../llm/providers.ts";

export const PROVIDER_SETTINGS_KEY = "agent.provider";
export const API_KEY_PREFIX = "agent.apiKey.";
export const SYSTEM_PROMPT_PREFIX = "agent.systemPrompt.";

export interface ModelOverride {
  contextWindow?: number;
  maxOutput?: number;
  /** Whether to send reasoning_effort (the thinking level); defaults to the model table. */
  reasoning?: boolean;
}

export interface ProviderSettings {
  providerId: ProviderId;
  /** The base URL in use (the preset's unless the person changed it; required for custom). */
  baseUrl: string;
  /** Default model for new sessions (sessions record their own with model_change entries). */
  model: string;
  /** Default thinking level for new sessions. */
  thinkingLevel: string;
  /** Per model id. */
  overrides: Record<string, ModelOverride>;
}

export const DEFAULT_PROVIDER_SETTINGS: ProviderSettings = {
  providerId: "openai",
  baseUrl: providerPreset("openai").baseUrl,
  model: "",
  thinkingLevel: "off",
  overrides: {},
};

const isPositiveInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v > 0;

function normalizeOverride(value: unknown): ModelOverride | undefined {
  if (!value || typeof value !== "object") return undefined;
  const v = value as Record<string, unknown>;
  const out: ModelOverride = {};
  if (isPositiveInt(v.contextWindow)) out.contextWindow = v.contextWindow;
  if (isPositiveInt(v.maxOutput)) out.maxOutput = v.maxOutput;
  if (typeof v.reasoning === "boolean") out.reasoning = v.reasoning;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Any stored value -> valid settings (unknown provider ids become "custom"). */
export function normalizeProviderSettings(value: unknown): ProviderSettings {
  if (!value || typeof value !== "object") return { ...DEFAULT_PROVIDER_SETTINGS, overrides: {} };
  const v = value as Record<string, unknown>;
  const known = PROVIDER_PRESETS.some((p) => p.id === v.providerId);
  const providerId: ProviderId = known ? (v.providerId as ProviderId) : "custom";
  const baseUrl =
    typeof v.baseUrl === "string" && v.baseUrl.trim() !== ""
      ? v.baseUrl.trim()
      : providerPreset(providerId).baseUrl;
  const overrides: Record<string, ModelOverride> = {};
  if (v.overrides && typeof v.overrides === "object") {
    for (const [model, o] of Object.entries(v.overrides as Record<string, unknown>)) {
      const n = normalizeOverride(o);
      if (n) overrides[model] = n;
    }
  }
  return {
    providerId,
    baseUrl,
    model: typeof v.model === "string" ? v.model.trim() : "",
    thinkingLevel:
      typeof v.thinkingLevel === "string" && (THINKING_LEVELS as readonly string[]).includes(v.thinkingLevel)
        ? v.thinkingLevel
        : "off",
    overrides,
  };
}

/** Switching preset: the preset's base URL (custom keeps what was typed). */
export function withProvider(settings: ProviderSettings, providerId: ProviderId): ProviderSettings {
  const preset = providerPreset(providerId);
  return {
    ...settings,
    providerId,
    baseUrl:
      providerId === "custom" ? (settings.providerId === "custom" ? settings.baseUrl : "") : preset.baseUrl,
  };
}

export interface ModelLimits {
  contextWindow: number;
  maxOutput: number;
  reasoning: boolean;
  /** Which values come from an override rather than the known table. */
  overridden: { contextWindow: boolean; maxOutput: boolean; reasoning: boolean };
  /** Whether the model is in the known table (else the defaults apply). */
  known: boolean;
}

/** The limits used for a model: the person's override, else the known table, else defaults. */
export function modelLimits(settings: ProviderSettings, model: string): ModelLimits {
  const info = modelInfo(model);
  const o = settings.overrides[model] ?? {};
  const known = !(
    info.contextWindow === DEFAULT_CONTEXT_WINDOW &&
    info.maxOutput === DEFAULT_MAX_OUTPUT &&
    info.prices === undefined &&
    info.reasoning === undefined
  );
  return {
    contextWindow: o.contextWindow ?? info.contextWindow,
    maxOutput: o.maxOutput ?? info.maxOutput,
    reasoning: o.reasoning ?? info.reasoning === true,
    overridden: {
      contextWindow: o.contextWindow !== undefined,
      maxOutput: o.maxOutput !== undefined,
      reasoning: o.reasoning !== undefined,
    },
    known,
  };
}

/** Sets (or with undefined clears) one override field of a model. */
export function withOverride<K extends keyof ModelOverride>(
  settings: ProviderSettings,
  model: string,
  field: K,
  value: ModelOverride[K] | undefined,
): ProviderSettings {
  const current: ModelOverride = { ...(settings.overrides[model] ?? {}) };
  if (value === undefined) delete current[field];
  else current[field] = value;
  const overrides = { ...settings.overrides };
  if (Object.keys(current).length === 0) delete overrides[model];
  else overrides[model] = current;
  return { ...settings, overrides };
}

export async function loadProviderSettings(db: CutpointDb): Promise<ProviderSettings> {
  return normalizeProviderSettings(await getSetting(db, PROVIDER_SETTINGS_KEY));
}

export function saveProviderSettings(db: CutpointDb, settings: ProviderSettings): Promise<Result<void>> {
  return setSetting(db, PROVIDER_SETTINGS_KEY, normalizeProviderSettings(settings));
}

// ---------------------------------------------------------------------------
// API keys: one per provider preset, only in this browser.
// ---------------------------------------------------------------------------

export async function getApiKey(db: CutpointDb, providerId: string): Promise<string> {
  const v = await getSetting<unknown>(db, API_KEY_PREFIX + providerId);
  return typeof v === "string" ? v : "";
}

export function setApiKey(db: CutpointDb, providerId: string, key: string): Promise<Result<void>> {
  const trimmed = key.trim();
  if (trimmed === "") return deleteSetting(db, API_KEY_PREFIX + providerId);
  return setSetting(db, API_KEY_PREFIX + providerId, trimmed);
}

export function removeApiKey(db: CutpointDb, providerId: string): Promise<Result<void>> {
  return deleteSetting(db, API_KEY_PREFIX + providerId);
}

/** A key shown masked: its first 3 and last 4 characters at most, never more than a third of it. */
export function maskKey(key: string): string {
  if (key === "") return "";
  const visible = Math.min(7, Math.floor(key.length / 3));
  const head = Math.min(3, Math.ceil(visible / 2));
  const tail = visible - head;
  return `${key.slice(0, head)}${"•".repeat(Math.max(4, Math.min(16, key.length - visible)))}${tail > 0 ? key.slice(-tail) : ""}`;
}

// ---------------------------------------------------------------------------
// System prompt, per session.
// ---------------------------------------------------------------------------

export const DEFAULT_SYSTEM_PROMPT = `You are a careful coding agent working in a project workspace through tools. Everything happens in the person's browser: the workspace is either the browser's private file storage or a local folder they picked.

Tools (paths are relative to the workspace root):
- read {path, offset?, limit?}: read a text file (long files are truncated; page with offset/limit).
- write {path, content}: create or replace a file (parent folders are created).
- edit {path, oldText, newText}: replace one exact, unique occurrence of oldText.
- ls {path?}: list a folder.
- find {pattern, path?}: find files by glob pattern.
- grep {pattern, path?, glob?, ignoreCase?, literal?, context?}: search file contents.

There is no shell: you cannot run commands, tests or builds. Read files before changing them, prefer small edits over rewrites, and keep the person informed: say what you changed and why, briefly. If something is unclear, ask.`;

export async function getSystemPrompt(db: CutpointDb, sessionId: string): Promise<string> {
  const v = await getSetting<unknown>(db, SYSTEM_PROMPT_PREFIX + sessionId);
  return typeof v === "string" ? v : DEFAULT_SYSTEM_PROMPT;
}

/** Stores the session's prompt; the default (or an empty text) clears the override. */
export function setSystemPrompt(db: CutpointDb, sessionId: string, prompt: string): Promise<Result<void>> {
  if (prompt.trim() === "" || prompt === DEFAULT_SYSTEM_PROMPT)
    return deleteSetting(db, SYSTEM_PROMPT_PREFIX + sessionId);
  return setSetting(db, SYSTEM_PROMPT_PREFIX + sessionId, prompt);
}
