/**
 * pi's own settings files read as pi 1.6 reads them: settings.json's compaction block (enabled,
 * reserve and keep-recent tokens, per-model overrides keyed "provider/modelId", each token value
 * resolved override → ordinary → built-in default) and models.json's model windows and output
 * limits (a `models` entry takes pi's defaults for what it leaves out; a `modelOverrides` entry
 * only what it says). Errors as values, with the place in the file. Pure.
 */
import { DEFAULT_COMPACTION_SETTINGS } from "./tokens.ts";

export type PiResult<T> = { ok: true; value: T } | { ok: false; error: string };

export type PiTokenField = "reserveTokens" | "keepRecentTokens";

/**
 * settings.json's compaction block as written. pi checks a value only when it resolves it (an
 * override of another model may be broken and unused), so the file keeps what it holds and
 * `problems` lists every value pi would refuse when it came to it.
 */
export interface PiCompactionFile {
  compaction: Record<string, unknown>;
  problems: string[];
}

/** Where a resolved figure comes from, said to the person. */
export type PiSource = "model override" | "settings" | "pi default";

export interface PiCompactionResolved {
  enabled: boolean;
  reserveTokens: number;
  keepRecentTokens: number;
  source: Record<PiTokenField | "enabled", PiSource>;
}

export interface PiModelLimits {
  contextWindow?: number;
  maxTokens?: number;
}

/** Keyed by "provider/modelId". */
export type PiModelTable = Record<string, PiModelLimits>;

/** pi's defaults for a `models` entry that leaves a field out (model-config's schema). */
export const PI_MODEL_DEFAULTS = { contextWindow: 128_000, maxTokens: 16_384 } as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** JSON.parse with the line and column of the first error, as a person finds it in an editor. */
export function parseJsonFile(text: string, name: string): PiResult<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const at = /position (\d+)/.exec(message);
    if (!at) return { ok: false, error: `${name}: not valid JSON (${message})` };
    const before = text.slice(0, Number(at[1]));
    const line = before.split("\n").length;
    const column = before.length - before.lastIndexOf("\n");
    return { ok: false, error: `${name}, line ${line}, column ${column}: not valid JSON (${message})` };
  }
}

/** pi's rule for a compaction token value: a non-negative safe integer. */
function tokenValue(v: unknown, where: string): PiResult<number | undefined> {
  if (v === undefined) return { ok: true, value: undefined };
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return { ok: true, value: v };
  return { ok: false, error: `${where} is ${JSON.stringify(v)}: pi expects a non-negative whole number` };
}

const FIELDS: readonly PiTokenField[] = ["reserveTokens", "keepRecentTokens"];

/** settings.json's compaction block (the rest of the file is pi's own business). */
export function readPiSettings(text: string): PiResult<PiCompactionFile> {
  const parsed = parseJsonFile(text, "settings.json");
  if (!parsed.ok) return parsed;
  if (!isObject(parsed.value)) return { ok: false, error: "settings.json: not a JSON object" };
  const compaction = isObject(parsed.value.compaction) ? parsed.value.compaction : {};
  const problems: string[] = [];
  const check = (r: PiResult<unknown>) => {
    if (!r.ok) problems.push(r.error);
  };
  for (const field of FIELDS) check(tokenValue(compaction[field], `settings.json: compaction.${field}`));
  if (compaction.enabled !== undefined && typeof compaction.enabled !== "boolean")
    problems.push("settings.json: compaction.enabled is not true or false");
  const overrides = isObject(compaction.modelOverrides) ? compaction.modelOverrides : {};
  for (const [key, entry] of Object.entries(overrides)) {
    const where = `settings.json: compaction.modelOverrides["${key}"]`;
    if (!isObject(entry)) problems.push(`${where} is not an object`);
    else for (const field of FIELDS) check(tokenValue(entry[field], `${where}.${field}`));
  }
  return { ok: true, value: { compaction, problems } };
}

/**
 * The compaction settings pi uses for a model: each value override → ordinary → default, checked
 * as pi checks them (only what is resolved; a broken one is an error, as pi refuses to start).
 */
export function resolvePiCompaction(
  file: PiCompactionFile,
  model: { provider: string; modelId: string } | undefined,
): PiResult<PiCompactionResolved> {
  const c = file.compaction;
  const key = model ? `${model.provider}/${model.modelId}` : undefined;
  const overrides = isObject(c.modelOverrides) ? c.modelOverrides : {};
  const entry = key !== undefined && Object.hasOwn(overrides, key) ? overrides[key] : undefined;
  const where = `settings.json: compaction.modelOverrides["${key}"]`;
  if (entry !== undefined && !isObject(entry)) return { ok: false, error: `${where} is not an object` };
  const values = {} as Record<PiTokenField, [number, PiSource]>;
  for (const field of FIELDS) {
    const ordinary = tokenValue(c[field], `settings.json: compaction.${field}`);
    if (!ordinary.ok) return ordinary;
    const override = tokenValue(entry?.[field], `${where}.${field}`);
    if (!override.ok) return override;
    values[field] =
      override.value !== undefined
        ? [override.value, "model override"]
        : ordinary.value !== undefined
          ? [ordinary.value, "settings"]
          : [DEFAULT_COMPACTION_SETTINGS[field], "pi default"];
  }
  const enabled = c.enabled === undefined ? true : c.enabled === true;
  return {
    ok: true,
    value: {
      enabled,
      reserveTokens: values.reserveTokens[0],
      keepRecentTokens: values.keepRecentTokens[0],
      source: {
        enabled: c.enabled === undefined ? "pi default" : "settings",
        reserveTokens: values.reserveTokens[1],
        keepRecentTokens: values.keepRecentTokens[1],
      },
    },
  };
}

/** A window or output limit as pi's schema takes it: a number above 0. */
function limit(v: unknown, where: string): PiResult<number | undefined> {
  if (v === undefined) return { ok: true, value: undefined };
  if (typeof v === "number" && Number.isFinite(v) && v > 0) return { ok: true, value: v };
  return { ok: false, error: `${where} is ${JSON.stringify(v)}: pi expects a number above 0` };
}

function readLimits(entry: Record<string, unknown>, where: string): PiResult<PiModelLimits> {
  const window = limit(entry.contextWindow, `${where}.contextWindow`);
  if (!window.ok) return window;
  const max = limit(entry.maxTokens, `${where}.maxTokens`);
  if (!max.ok) return max;
  const out: PiModelLimits = {};
  if (window.value !== undefined) out.contextWindow = window.value;
  if (max.value !== undefined) out.maxTokens = max.value;
  return { ok: true, value: out };
}

/** models.json's windows and output limits per "provider/modelId". */
export function readPiModels(text: string): PiResult<PiModelTable> {
  const parsed = parseJsonFile(text, "models.json");
  if (!parsed.ok) return parsed;
  if (!isObject(parsed.value) || !isObject(parsed.value.providers))
    return {
      ok: false,
      error: 'models.json: no providers object (pi\'s models.json has { "providers": { … } })',
    };
  const table: PiModelTable = {};
  for (const [provider, config] of Object.entries(parsed.value.providers)) {
    if (!isObject(config))
      return { ok: false, error: `models.json: providers["${provider}"] is not an object` };
    if (config.models !== undefined) {
      if (!Array.isArray(config.models))
        return { ok: false, error: `models.json: providers["${provider}"].models is not a list` };
      for (const [i, m] of config.models.entries()) {
        const where = `models.json: providers["${provider}"].models[${i}]`;
        if (!isObject(m) || typeof m.id !== "string" || m.id === "")
          return { ok: false, error: `${where} has no id` };
        const r = readLimits(m, where);
        if (!r.ok) return r;
        table[`${provider}/${m.id}`] = { ...PI_MODEL_DEFAULTS, ...r.value };
      }
    }
    if (config.modelOverrides !== undefined) {
      if (!isObject(config.modelOverrides))
        return { ok: false, error: `models.json: providers["${provider}"].modelOverrides is not an object` };
      for (const [id, o] of Object.entries(config.modelOverrides)) {
        const where = `models.json: providers["${provider}"].modelOverrides["${id}"]`;
        if (!isObject(o)) return { ok: false, error: `${where} is not an object` };
        const r = readLimits(o, where);
        if (!r.ok) return r;
        if (r.value.contextWindow === undefined && r.value.maxTokens === undefined) continue;
        table[`${provider}/${id}`] = { ...table[`${provider}/${id}`], ...r.value };
      }
    }
  }
  return { ok: true, value: table };
}
