/**
 * Compaction settings (persisted under the settings key "compaction"): what happens past the
 * trigger (ask / auto / remind / off), where the trigger lies (window − reserve, as pi sets it, or
 * a share of the window), reserve and keep-recent tokens (null: they follow the model's window,
 * core/compaction/model-fit.ts), an optional context-window override,
 * the estimator, the summarizer model and whether leaving a branch offers a branch summary. Read
 * loose, write strict: unknown or bad values fall back to the defaults.
 */

import { DEFAULT_COMPACTION_SETTINGS } from "../../core/compaction/tokens.ts";
import type { TriggerSetting } from "../../core/compaction/trigger.ts";
import type { CutpointDb } from "../../db/schema.ts";
import { deleteSetting, getSetting, setSetting } from "../../db/settings-repo.ts";

export const COMPACTION_SETTINGS_KEY = "compaction";

/** "remind": past the trigger the meter says so, and nothing opens by itself. */
export type CompactionMode = "ask" | "auto" | "remind" | "off";
export type EstimatorChoice = "pi" | "tokenizer";
/** When the leaf moves off a branch with messages: "ask" (the preview with the summary offer) or "never" (just move). */
export type BranchSummaryMode = "ask" | "never";

export interface CompactionUserSettings {
  mode: CompactionMode;
  /** null: follows the model (pi's 16,384 from a 64k window up, a quarter of smaller ones). */
  reserveTokens: number | null;
  /** null: follows the model (pi's 20,000 from a 64k window up, the same share below). */
  keepRecentTokens: number | null;
  /** Overrides the model's context window when set (e.g. a local server with a small window). */
  contextWindow: number | null;
  estimator: EstimatorChoice;
  /** Model used for summaries; "" means the session's model. */
  summarizerModel: string;
  /** Whether moving the leaf off a branch offers a branch summary (docs/session-format.md §12). */
  branchSummary: BranchSummaryMode;
  trigger: TriggerSetting;
}

export const DEFAULT_USER_SETTINGS: Readonly<CompactionUserSettings> = {
  mode: "ask",
  reserveTokens: null,
  keepRecentTokens: null,
  contextWindow: null,
  estimator: "pi",
  summarizerModel: "",
  branchSummary: "ask",
  trigger: { kind: "reserve" },
};

function readTrigger(v: unknown): TriggerSetting {
  const t = v && typeof v === "object" ? (v as { kind?: unknown; percent?: unknown }) : {};
  if (t.kind === "percent" && typeof t.percent === "number" && t.percent >= 1 && t.percent <= 100)
    return { kind: "percent", percent: Math.round(t.percent) };
  return { kind: "reserve" };
}

const posInt = (v: unknown, min = 0): number | undefined =>
  typeof v === "number" && Number.isFinite(v) && v >= min ? Math.floor(v) : undefined;

/**
 * A token setting as stored: a number the person set, or null (follow the model). Before settings
 * could follow the model every save wrote pi's defaults, so a stored default reads as null.
 */
const tokenSetting = (v: unknown, piDefault: number): number | null => {
  const value = posInt(v, 0);
  return value === undefined || value === piDefault ? null : value;
};

/** Normalizes whatever is stored into valid settings. */
export function normalizeSettings(raw: unknown): CompactionUserSettings {
  const r = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const d = DEFAULT_USER_SETTINGS;
  const mode =
    r.mode === "ask" || r.mode === "auto" || r.mode === "remind" || r.mode === "off" ? r.mode : d.mode;
  const windowValue = posInt(r.contextWindow, 1024);
  return {
    mode,
    reserveTokens: tokenSetting(r.reserveTokens, DEFAULT_COMPACTION_SETTINGS.reserveTokens),
    keepRecentTokens: tokenSetting(r.keepRecentTokens, DEFAULT_COMPACTION_SETTINGS.keepRecentTokens),
    contextWindow: windowValue ?? null,
    estimator: r.estimator === "tokenizer" ? "tokenizer" : "pi",
    summarizerModel: typeof r.summarizerModel === "string" ? r.summarizerModel.trim() : d.summarizerModel,
    branchSummary: r.branchSummary === "never" ? "never" : d.branchSummary,
    trigger: readTrigger(r.trigger),
  };
}

/** A session's own choice of when compaction fires (mode and trigger), over the settings for all sessions. */
export type SessionCompactionOverride = Partial<Pick<CompactionUserSettings, "mode" | "trigger">>;

export const sessionSettingsKey = (sessionId: string) => `compaction.session.${sessionId}`;

/** Reads a session's override loose: only valid fields are kept. */
export function readSessionOverride(raw: unknown): SessionCompactionOverride {
  if (!raw || typeof raw !== "object") return {};
  const r = raw as Record<string, unknown>;
  const all = normalizeSettings(r);
  const out: SessionCompactionOverride = {};
  if (r.mode !== undefined && all.mode === r.mode) out.mode = all.mode;
  if (r.trigger !== undefined) out.trigger = all.trigger;
  return out;
}

/** The settings for all sessions with a session's own mode and trigger over them. */
export function withSessionOverride(
  settings: CompactionUserSettings,
  override: SessionCompactionOverride,
): CompactionUserSettings {
  return { ...settings, ...override };
}

export async function loadCompactionSettings(
  db: CutpointDb,
  sessionId?: string,
): Promise<CompactionUserSettings> {
  const all = normalizeSettings(await getSetting(db, COMPACTION_SETTINGS_KEY));
  if (sessionId === undefined) return all;
  return withSessionOverride(all, readSessionOverride(await getSetting(db, sessionSettingsKey(sessionId))));
}

/** Sets (or with null clears) a session's own mode and trigger. */
export async function saveSessionCompactionSettings(
  db: CutpointDb,
  sessionId: string,
  override: SessionCompactionOverride | null,
) {
  if (override === null) return deleteSetting(db, sessionSettingsKey(sessionId));
  return setSetting(db, sessionSettingsKey(sessionId), readSessionOverride(override));
}

export async function saveCompactionSettings(db: CutpointDb, settings: Partial<CompactionUserSettings>) {
  const current = await loadCompactionSettings(db);
  const next = normalizeSettings({ ...current, ...settings });
  const r = await setSetting(db, COMPACTION_SETTINGS_KEY, next);
  return r.ok ? { ok: true as const, value: next } : r;
}
