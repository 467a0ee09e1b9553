/**
 * Agent settings kept in this browser (the Dexie `settings` table): the provider (none until the
 * person picks a preset or a custom base URL), the default model and thinking level, per-model
 * limit overrides and the per-session system prompt. API keys: key-vault.ts (bound to origins);
 * `getApiKey` gives requests a key ref for the provider's base URL, never the secret.
 *
 * Read loose, write strict: `normalizeProviderSettings` accepts anything stored earlier and fills
 * defaults, so a damaged or older value never breaks the app.
 */
import { THINKING_LEVELS } from "../../core/agent/settings.ts";
import { type CutpointDb, deleteSetting, getSetting, type Result, setSetting } from "../../db/index.ts";
import {
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MAX_OUTPUT,
  modelInfo,
  NO_PROVIDER,
  PROVIDER_PRESETS,
  type ProviderChoice,
  type ProviderId,
  providerPreset,
} from "../../llm/providers.ts";
import { keyRefFor, keyStores, removeKeyFor, saveKey, type VaultResult } from "../keys/key-vault.ts";

export { maskKey } from "../keys/key-vault.ts";

export const PROVIDER_SETTINGS_KEY = "agent.provider";
export const SYSTEM_PROMPT_PREFIX = "agent.systemPrompt.";

export interface ModelOverride {
  contextWindow?: number;
  maxOutput?: number;
  /** Whether to send reasoning_effort (the thinking level); defaults to the model table. */
  reasoning?: boolean;
  /** Compaction's reserve and keep-recent for this model (pi's compaction.modelOverrides). */
  reserveTokens?: number;
  keepRecentTokens?: number;
  /** The fields that came from pi's settings.json or models.json (Settings → pi's settings). */
  fromPi?: PiField[];
}

/** The override fields pi's files can set. */
export type PiField = "contextWindow" | "maxOutput" | "reserveTokens" | "keepRecentTokens";
const PI_FIELDS: readonly PiField[] = ["contextWindow", "maxOutput", "reserveTokens", "keepRecentTokens"];

export interface ProviderSettings {
  /** "none" until the person chooses (then nothing is contacted: the base URL is empty). */
  providerId: ProviderChoice;
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
  providerId: NO_PROVIDER,
  baseUrl: "",
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
  for (const field of ["reserveTokens", "keepRecentTokens"] as const) {
    const n = v[field];
    if (typeof n === "number" && Number.isSafeInteger(n) && n >= 0) out[field] = n;
  }
  const fromPi = Array.isArray(v.fromPi)
    ? PI_FIELDS.filter((f) => (v.fromPi as unknown[]).includes(f) && out[f] !== undefined)
    : [];
  if (fromPi.length > 0) out.fromPi = fromPi;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Any stored value -> valid settings (unknown provider ids become "custom"). */
export function normalizeProviderSettings(value: unknown): ProviderSettings {
  if (!value || typeof value !== "object") return { ...DEFAULT_PROVIDER_SETTINGS, overrides: {} };
  const v = value as Record<string, unknown>;
  const known = PROVIDER_PRESETS.some((p) => p.id === v.providerId);
  const typed = typeof v.baseUrl === "string" ? v.baseUrl.trim() : "";
  const providerId: ProviderChoice = known
    ? (v.providerId as ProviderId)
    : v.providerId === NO_PROVIDER && typed === ""
      ? NO_PROVIDER
      : "custom";
  const baseUrl = typed !== "" ? typed : providerId === NO_PROVIDER ? "" : providerPreset(providerId).baseUrl;
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

/** Whether the person has chosen a provider (before that, nothing is contacted). */
export const providerChosen = (settings: ProviderSettings): boolean =>
  settings.providerId !== NO_PROVIDER && settings.baseUrl !== "";

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
  /** Compaction's reserve and keep-recent for this model, when set for it (they beat the settings for all models). */
  reserveTokens?: number;
  keepRecentTokens?: number;
  /** The values that came from pi's settings.json or models.json. */
  fromPi: PiField[];
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
    ...(o.reserveTokens !== undefined ? { reserveTokens: o.reserveTokens } : {}),
    ...(o.keepRecentTokens !== undefined ? { keepRecentTokens: o.keepRecentTokens } : {}),
    fromPi: o.fromPi ?? [],
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
  // A value set by hand is the person's, no longer pi's.
  const fromPi = current.fromPi?.filter((f) => f !== field);
  if (fromPi && fromPi.length > 0) current.fromPi = fromPi;
  else delete current.fromPi;
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
// API keys of a provider: bound to the origin of its base URL (key-vault.ts).
// ---------------------------------------------------------------------------

/** The provider's base URL: the one in use for the chosen provider, else its preset's. */
async function providerBaseUrl(db: CutpointDb, providerId: string): Promise<string> {
  const settings = await loadProviderSettings(db);
  return settings.providerId === providerId ? settings.baseUrl : providerPreset(providerId).baseUrl;
}

/**
 * The key ref for requests to the provider's base URL ("" when no key is saved for its origin).
 * A ref, not the secret: the request's client (llm/key-guard.ts) reads the secret, and only for
 * that origin.
 */
export async function getApiKey(db: CutpointDb, providerId: string): Promise<string> {
  return keyRefFor(keyStores(db), await providerBaseUrl(db, providerId));
}

/** Saves a key on this device for the provider's base URL ("" removes it). */
export async function setApiKey(db: CutpointDb, providerId: string, key: string): Promise<VaultResult> {
  const baseUrl = await providerBaseUrl(db, providerId);
  if (key.trim() === "") return removeKeyFor(keyStores(db), baseUrl);
  return saveKey(keyStores(db), { baseUrl, secret: key, mode: "device" });
}

export async function removeApiKey(db: CutpointDb, providerId: string): Promise<VaultResult> {
  return removeKeyFor(keyStores(db), await providerBaseUrl(db, providerId));
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
