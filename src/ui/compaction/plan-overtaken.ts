/**
 * Whether a plan the person saw was overtaken: the session's leaf moved (another tab or a run
 * wrote to it) since the plan was shown, and what to say about the plan that applies now.
 */
import { plural } from "./format-tokens.ts";

/** What the person last saw: the leaf the plan was drawn on and how many outputs it masked. */
export interface SeenPlan {
  leafId: string | null;
  count: number;
}

/** The words for a masking plan the session overtook, or null while the seen plan still applies. */
export function maskOvertaken(seen: SeenPlan, leafId: string | null, count: number): string | null {
  if (seen.leafId === leafId) return null;
  if (count === 0 && seen.count === 0) return null;
  const now =
    count === 0 ? "now no tool output would be masked" : `now ${plural(count, "output")} would be masked`;
  const was = count === seen.count ? "" : ` (the plan you saw masked ${seen.count})`;
  return `The session moved on since this plan was shown: ${now}${was}.`;
}
