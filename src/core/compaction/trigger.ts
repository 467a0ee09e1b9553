/** When compaction fires: the trigger setting and the threshold it gives for a window (small: the meter reads it). */
import { compactionThreshold } from "./tokens.ts";

/** Where the threshold lies: pi's window − reserve, or a share of the window. */
export type TriggerSetting = { kind: "reserve" } | { kind: "percent"; percent: number };

/** The threshold in tokens for a window: window − reserve, or the share of the window. */
export function triggerThreshold(
  contextWindow: number,
  reserveTokens: number,
  trigger?: TriggerSetting,
): number {
  if (trigger?.kind === "percent") {
    const p = Math.min(100, Math.max(1, trigger.percent));
    return Math.floor((contextWindow * p) / 100);
  }
  return compactionThreshold(contextWindow, reserveTokens);
}
