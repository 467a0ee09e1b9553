/**
 * Settings that fit the model: reserve, keep-recent and the output budget follow the model's
 * context window and output limit when the person has not set them (pi 1.6's numbers from a
 * 64k window up, the same shares of the window below it); the threshold never lies at or below
 * the context in use at the start (system prompt and tools); a request's max_tokens is pi-ai's
 * clamp (clampMaxTokensToContext) with its fixed margin scaled down for small windows, never more
 * than the room left; and what makes compaction impossible or pointless comes back as problems,
 * each with its fix. Pure.
 */
import type { AgentMessage } from "../session/types.ts";
import { DEFAULT_COMPACTION_SETTINGS, estimateContextTokens } from "./tokens.ts";
import { type TriggerSetting, triggerThreshold } from "./trigger.ts";

/** From this window up pi 1.6's own numbers apply unchanged (16,384 is a quarter of it). */
export const FULL_WINDOW = 65_536;
const PI_RESERVE = DEFAULT_COMPACTION_SETTINGS.reserveTokens;
const PI_KEEP = DEFAULT_COMPACTION_SETTINGS.keepRecentTokens;
/** pi-ai's request margins (simple-options.ts): fixed tokens, a share of the input, the output floor. */
const PI_SAFETY_TOKENS = 4096;
const PI_SAFETY_RATIO = 0.15;
const PI_MIN_OUTPUT_WITH_RATIO = 32_768;

/** The reserve that follows the model: pi's 16,384 from 64k up, a quarter of smaller windows. */
export const modelReserve = (window: number): number =>
  window >= FULL_WINDOW ? PI_RESERVE : Math.floor(window / 4);

/** The keep-recent that follows the model: pi's 20,000 from 64k up, the same share below. */
export const modelKeepRecent = (window: number): number =>
  window >= FULL_WINDOW ? PI_KEEP : Math.floor((window * PI_KEEP) / FULL_WINDOW);

/** The output budget that follows the model: its output limit, at most half the window. */
export const modelOutputBudget = (window: number, outputLimit: number): number =>
  Math.max(1, Math.min(outputLimit, Math.floor(window / 2)));

/**
 * max_tokens for a request with `inputTokens` in a `window`: pi-ai's clamp (a margin of 4,096
 * tokens or 15 % of the input, the larger; output kept to 32k when the share would leave less),
 * with the fixed margin a sixteenth of windows under 64k. Never above the room left (when any is).
 */
export function requestMaxTokens(window: number, inputTokens: number, outputBudget: number): number {
  if (!(window > 0)) return Math.max(1, outputBudget);
  const fixed = Math.min(PI_SAFETY_TOKENS, Math.ceil(window / 16));
  const margin = Math.max(fixed, Math.ceil(inputTokens * PI_SAFETY_RATIO));
  let room = window - inputTokens - margin;
  if (room < PI_MIN_OUTPUT_WITH_RATIO)
    room = Math.min(PI_MIN_OUTPUT_WITH_RATIO, window - inputTokens - fixed);
  return Math.max(1, Math.min(outputBudget, room));
}

export type FitSetting = "reserve" | "keep" | "trigger" | "window" | "output";

/** A setting that makes compaction impossible or pointless on this model, in words, with its fix. */
export interface FitProblem {
  setting: FitSetting;
  message: string;
  fix: string;
}

export interface ModelFitInput {
  contextWindow: number;
  /** The model's output limit (its table entry or the person's override). */
  outputLimit: number;
  /** The person's reserve, or null to follow the model. */
  reserveTokens: number | null;
  /** The person's keep-recent, or null to follow the model. */
  keepRecentTokens: number | null;
  trigger?: TriggerSetting;
  /** Tokens in context before any message: the system prompt and the tools. */
  startTokens: number;
}

export interface ModelFit {
  reserveTokens: number;
  keepRecentTokens: number;
  outputBudget: number;
  /** Where compaction starts; always above `startTokens` when the window leaves any room. */
  threshold: number;
  /** "model": followed the model; "setting": the person's; "adjusted": theirs did not fit. */
  reserveSource: "model" | "setting" | "adjusted";
  keepSource: "model" | "setting" | "adjusted";
  problems: FitProblem[];
}

const n = (x: number) => Math.round(x).toLocaleString("en-US");

/** The settings in effect for a model, and what does not fit (see the file comment). */
export function fitToModel(input: ModelFitInput): ModelFit {
  const window = Math.max(0, input.contextWindow);
  const start = Math.max(0, Math.ceil(input.startTokens));
  const problems: FitProblem[] = [];
  const outputBudget = modelOutputBudget(window, input.outputLimit);
  const free = window - start;
  if (free <= 0 || start >= window * 0.75) {
    problems.push({
      setting: "window",
      message: `The system prompt and tools take ${n(start)} of this model's ${n(window)}-token window: little or nothing is left for the conversation.`,
      fix: "Pick a model with a larger window, or shorten the system prompt.",
    });
  }

  // The reserve: the person's unless it leaves no room above the start, then the model's.
  let reserveTokens = input.reserveTokens ?? modelReserve(window);
  let reserveSource: ModelFit["reserveSource"] = input.reserveTokens === null ? "model" : "setting";
  const usesReserve = input.trigger?.kind !== "percent";
  const fallbackThreshold = start + Math.max(1, Math.floor(free / 2));
  if (usesReserve && input.reserveTokens !== null && window - input.reserveTokens <= start && free > 0) {
    reserveTokens = Math.min(modelReserve(window), Math.max(0, window - fallbackThreshold));
    reserveSource = "adjusted";
    problems.push({
      setting: "reserve",
      message: `Reserve ${n(input.reserveTokens)} leaves nothing of this model's ${n(window)}-token window above the ${n(start)} tokens in use at the start: compaction would start before your first message. Using ${n(reserveTokens)}.`,
      fix: `Clear it to follow the model, or set it below ${n(free)}.`,
    });
  }
  let threshold = triggerThreshold(window, reserveTokens, input.trigger);
  if (threshold <= start && free > 0) {
    if (!usesReserve)
      problems.push({
        setting: "trigger",
        message: `A trigger at ${input.trigger?.kind === "percent" ? input.trigger.percent : 0} % of the window (${n(threshold)} tokens) is at or below the ${n(start)} tokens in use at the start: compaction would start before your first message. Using ${n(fallbackThreshold)}.`,
        fix: `Set the share above ${Math.ceil((start / window) * 100)} %, or trigger at window − reserve.`,
      });
    threshold = fallbackThreshold;
    if (usesReserve) reserveTokens = window - threshold;
  }

  // Keep-recent: more than the conversation can hold before the trigger keeps everything.
  const conversation = Math.max(0, threshold - start);
  const useful = Math.max(0, Math.floor(conversation / 2));
  let keepRecentTokens = input.keepRecentTokens ?? modelKeepRecent(window);
  let keepSource: ModelFit["keepSource"] = input.keepRecentTokens === null ? "model" : "setting";
  if (keepRecentTokens >= conversation && conversation > 0) {
    const asked = keepRecentTokens;
    keepRecentTokens = Math.min(modelKeepRecent(window), useful);
    if (input.keepRecentTokens !== null) {
      keepSource = "adjusted";
      problems.push({
        setting: "keep",
        message: `Keep recent ${n(asked)} is more than the ${n(conversation)} tokens the conversation holds before compaction starts: a compaction would keep everything and summarize nothing. Using ${n(keepRecentTokens)}.`,
        fix: `Clear it to follow the model, or set it below ${n(useful)}.`,
      });
    }
  }
  if (input.outputLimit > window && window > 0) {
    problems.push({
      setting: "output",
      message: `The output limit ${n(input.outputLimit)} is larger than the ${n(window)}-token window; requests ask for at most ${n(outputBudget)} (less when the context is fuller).`,
      fix: "Set the model's max output in Settings to what the server allows.",
    });
  }
  return { reserveTokens, keepRecentTokens, outputBudget, threshold, reserveSource, keepSource, problems };
}

/**
 * The input of a request in tokens, as the clamp counts it: the last usable provider usage plus
 * estimates after it (usage covers the prompt and tools), else estimates of everything.
 */
export function requestInputTokens(
  systemPrompt: string,
  tools: readonly unknown[],
  messages: readonly AgentMessage[],
): number {
  const context = estimateContextTokens(messages);
  if (context.source === "reported") return context.tokens;
  const declared = tools.length > 0 ? JSON.stringify(tools).length : 0;
  return context.tokens + Math.ceil((systemPrompt.length + declared) / 4);
}
