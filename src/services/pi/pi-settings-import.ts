/**
 * pi's settings.json and models.json brought into Cutpoint's own settings: first the list of
 * changes (each with where it comes from) for the person to read, then, when they apply it, one
 * write of both settings (all or nothing). Figures from pi stay marked as pi's until changed by hand.
 */
import {
  type PiCompactionFile,
  readPiModels,
  readPiSettings,
  resolvePiCompaction,
} from "../../core/compaction/pi-settings.ts";
import { type CutpointDb, type Result, setSettings } from "../../db/index.ts";
import {
  type ModelOverride,
  modelLimits,
  normalizeProviderSettings,
  type PiField,
  PROVIDER_SETTINGS_KEY,
  type ProviderSettings,
} from "../agent/agent-settings.ts";
import {
  COMPACTION_SETTINGS_KEY,
  type CompactionUserSettings,
  normalizeSettings,
} from "../compaction/compaction-settings.ts";

export interface PiImportFiles {
  /** The text of pi's settings.json (~/.pi/agent/settings.json), when given. */
  settings?: string;
  /** The text of pi's models.json (~/.pi/agent/models.json), when given. */
  models?: string;
}

export interface PiImportChange {
  /** What changes, e.g. "qwen3:8b: context window". */
  what: string;
  before: string;
  after: string;
  /** Where in pi's files it comes from. */
  source: string;
}

export interface PiImportPlan {
  changes: PiImportChange[];
  /** Values pi's files hold that pi would refuse, and what was skipped: said, not applied. */
  problems: string[];
  provider: ProviderSettings;
  compaction: CompactionUserSettings;
}

export type PiImportResult = { ok: true; value: PiImportPlan } | { ok: false; error: string };

const fmt = (n: number) => n.toLocaleString("en-US");
const tokens = (n: number | null, follows: string) => (n === null ? follows : `${fmt(n)} tokens`);

/** "provider/modelId" split at its first slash (model ids may hold slashes, provider names do not). */
function splitKey(key: string): { provider: string; modelId: string } | undefined {
  const at = key.indexOf("/");
  return at > 0 && at < key.length - 1
    ? { provider: key.slice(0, at), modelId: key.slice(at + 1) }
    : undefined;
}

interface Draft {
  provider: ProviderSettings;
  compaction: CompactionUserSettings;
  changes: PiImportChange[];
  problems: string[];
}

/** Sets one of a model's fields as pi's, listing the change when it is one. */
function setModelField(
  d: Draft,
  modelId: string,
  field: PiField,
  value: number,
  what: string,
  source: string,
) {
  const limits = modelLimits(d.provider, modelId);
  const before: number | null =
    field === "contextWindow" || field === "maxOutput" ? limits[field] : (limits[field] ?? null);
  const current: ModelOverride = { ...(d.provider.overrides[modelId] ?? {}) };
  current[field] = value;
  current.fromPi = [...new Set([...(current.fromPi ?? []), field])];
  d.provider = { ...d.provider, overrides: { ...d.provider.overrides, [modelId]: current } };
  if (before !== value)
    d.changes.push({
      what: `${modelId}: ${what}`,
      before: tokens(before, "the setting for all models"),
      after: tokens(value, ""),
      source,
    });
}

function addSettings(d: Draft, file: PiCompactionFile) {
  d.problems.push(...file.problems);
  const all = resolvePiCompaction(file, undefined);
  if (!all.ok) {
    d.problems.push(`${all.error}: settings.json's compaction figures were not taken`);
    return;
  }
  const r = all.value;
  const next = { ...d.compaction };
  for (const [field, label] of [
    ["reserveTokens", "Reserve tokens (all models)"],
    ["keepRecentTokens", "Keep recent tokens (all models)"],
  ] as const) {
    if (r.source[field] !== "settings" || next[field] === r[field]) continue;
    d.changes.push({
      what: label,
      before: tokens(next[field], "follows the model"),
      after: `${fmt(r[field])} tokens`,
      source: `settings.json compaction.${field}`,
    });
    next[field] = r[field];
  }
  if (!r.enabled && (next.mode === "ask" || next.mode === "auto")) {
    d.changes.push({
      what: "When the context passes the threshold",
      before: next.mode === "ask" ? "ask (the review opens)" : "compact automatically",
      after: "remind (the meter says so; nothing starts by itself)",
      source: "settings.json compaction.enabled: false",
    });
    next.mode = "remind";
  }
  d.compaction = normalizeSettings(next);
  const overrides = file.compaction.modelOverrides;
  for (const key of overrides && typeof overrides === "object" ? Object.keys(overrides) : []) {
    const model = splitKey(key);
    if (!model) {
      d.problems.push(`settings.json: compaction.modelOverrides["${key}"] is not "provider/model": skipped`);
      continue;
    }
    const one = resolvePiCompaction(file, model);
    if (!one.ok) continue; // Already in the problems, from reading the file.
    if (one.value.source.reserveTokens === "model override")
      setModelField(
        d,
        model.modelId,
        "reserveTokens",
        one.value.reserveTokens,
        "reserve tokens",
        `settings.json compaction.modelOverrides["${key}"]`,
      );
    if (one.value.source.keepRecentTokens === "model override")
      setModelField(
        d,
        model.modelId,
        "keepRecentTokens",
        one.value.keepRecentTokens,
        "keep recent tokens",
        `settings.json compaction.modelOverrides["${key}"]`,
      );
  }
}

/** What importing pi's files would change, or why they cannot be read. */
export function planPiImport(
  files: PiImportFiles,
  current: { provider: ProviderSettings; compaction: CompactionUserSettings },
): PiImportResult {
  if (files.settings === undefined && files.models === undefined)
    return { ok: false, error: "Choose pi's settings.json, its models.json, or both." };
  const d: Draft = { ...current, changes: [], problems: [] };
  if (files.settings !== undefined) {
    const file = readPiSettings(files.settings);
    if (!file.ok) return file;
    addSettings(d, file.value);
  }
  if (files.models !== undefined) {
    const table = readPiModels(files.models);
    if (!table.ok) return table;
    const taken = new Map<string, string>();
    for (const [key, limits] of Object.entries(table.value)) {
      const model = splitKey(key);
      if (!model) continue;
      const first = taken.get(model.modelId);
      if (first !== undefined) {
        d.problems.push(
          `models.json: ${model.modelId} is under ${first} and ${model.provider}; ${first}'s figures are used`,
        );
        continue;
      }
      taken.set(model.modelId, model.provider);
      const source = `models.json providers["${model.provider}"]`;
      if (limits.contextWindow !== undefined)
        setModelField(
          d,
          model.modelId,
          "contextWindow",
          Math.floor(limits.contextWindow),
          "context window",
          source,
        );
      if (limits.maxTokens !== undefined)
        setModelField(d, model.modelId, "maxOutput", Math.floor(limits.maxTokens), "output limit", source);
    }
  }
  return {
    ok: true,
    value: { changes: d.changes, problems: d.problems, provider: d.provider, compaction: d.compaction },
  };
}

/** Writes what the plan decided: both settings, or neither. */
export function applyPiImport(db: CutpointDb, plan: PiImportPlan): Promise<Result<void>> {
  return setSettings(db, [
    { key: PROVIDER_SETTINGS_KEY, value: normalizeProviderSettings(plan.provider) },
    { key: COMPACTION_SETTINGS_KEY, value: normalizeSettings(plan.compaction) },
  ]);
}
