/**
 * The compaction settings in effect for a session's model (core/compaction/model-fit.ts applied
 * to the person's settings, the model's limits and the tokens the session starts with): one place
 * that the agent hooks, the request's max_tokens, the meter and Settings all read.
 */
import { fitToModel, type ModelFit } from "../../core/compaction/model-fit.ts";
import { PI_ESTIMATOR } from "../../core/compaction/tokens.ts";
import { triggerThreshold } from "../../core/compaction/trigger.ts";
import { buildSessionContext } from "../../core/session/context.ts";
import type { SessionEntry, SystemMessage } from "../../core/session/types.ts";
import { DEFAULT_SYSTEM_PROMPT } from "../agent/agent-settings.ts";
import type { CompactionUserSettings } from "./compaction-settings.ts";

/** Settings with every number decided (reserve and keep-recent fitted to the model). */
export type FittedSettings = Omit<CompactionUserSettings, "reserveTokens" | "keepRecentTokens"> & {
  reserveTokens: number;
  keepRecentTokens: number;
};

export interface SettingsFit {
  settings: FittedSettings;
  fit: ModelFit;
  contextWindow: number;
}

/** The window in use: the compaction setting's override, else the model's. */
export const windowOf = (settings: CompactionUserSettings, limits: { contextWindow: number }): number =>
  settings.contextWindow ?? limits.contextWindow;

/**
 * The settings fitted to the model. A reserve or keep-recent set for the model itself (pi's
 * compaction.modelOverrides) beats the one for all models, as in pi.
 */
export function fitSettings(
  settings: CompactionUserSettings,
  limits: { contextWindow: number; maxOutput: number; reserveTokens?: number; keepRecentTokens?: number },
  startTokens: number,
): SettingsFit {
  const contextWindow = windowOf(settings, limits);
  const fit = fitToModel({
    contextWindow,
    outputLimit: limits.maxOutput,
    reserveTokens: limits.reserveTokens ?? settings.reserveTokens,
    keepRecentTokens: limits.keepRecentTokens ?? settings.keepRecentTokens,
    trigger: settings.trigger,
    startTokens,
  });
  const fitted: FittedSettings = {
    ...settings,
    reserveTokens: fit.reserveTokens,
    keepRecentTokens: fit.keepRecentTokens,
  };
  // A share of the window that did not fit: the threshold is carried as window − reserve.
  if (triggerThreshold(contextWindow, fitted.reserveTokens, fitted.trigger) !== fit.threshold) {
    fitted.trigger = { kind: "reserve" };
    fitted.reserveTokens = Math.max(0, contextWindow - fit.threshold);
  }
  return { settings: fitted, fit, contextWindow };
}

/** Tokens a system message declares (prompt and tools), pi's estimate. */
const systemTokens = (system: SystemMessage | undefined): number =>
  system ? PI_ESTIMATOR.estimateMessage(system) : 0;

/** Tokens the path's context starts with: its system prompt and tools. */
export function startTokensOf(path: readonly SessionEntry[]): number {
  return systemTokens(buildSessionContext(path).systemMessage);
}

let typical: number | undefined;
/**
 * Tokens a new session starts with, at least: Cutpoint's default prompt (its tools are declared
 * with the first message; the agent's hooks then read them from the session itself).
 */
export function typicalStartTokens(): number {
  typical ??= systemTokens({ role: "system", content: DEFAULT_SYSTEM_PROMPT, timestamp: 0 } as SystemMessage);
  return typical;
}

/** The start of a session's context: its own system prompt and tools, else a new session's. */
export function sessionStartTokens(path: readonly SessionEntry[]): number {
  return startTokensOf(path) || typicalStartTokens();
}
