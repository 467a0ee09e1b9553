/** The band of a path row for the current plan, and its label (colour is never the only cue). */
import type { CompactionPlan } from "../../core/compaction/plan.ts";
import type { SessionEntry } from "../../core/session/types.ts";

export type Band = "outside" | "summarized" | "prefix" | "kept" | "summary" | "context";

export const BAND_LABEL: Record<Band, string> = {
  outside: "Outside the context (summarized by an earlier compaction)",
  summarized: "Will be summarized",
  prefix: "Split-turn prefix (summarized separately)",
  kept: "Kept verbatim",
  summary: "Summary (compaction or branch summary)",
  context: "In context",
};

/** Short text shown in the gutter for screen readers and as a tooltip. */
export const BAND_SHORT: Record<Band, string> = {
  outside: "outside",
  summarized: "summarized",
  prefix: "prefix",
  kept: "kept",
  summary: "summary",
  context: "in context",
};

export function bandOf(
  index: number,
  entry: SessionEntry,
  plan: CompactionPlan | undefined,
  windowStart: number,
): Band {
  if (entry.type === "compaction" || entry.type === "branch_summary") return "summary";
  if (index < windowStart) return "outside";
  if (!plan) return "context";
  const b = plan.bands;
  if (index >= b.summarized.start && index < b.summarized.end) return "summarized";
  if (b.prefix && index >= b.prefix.start && index < b.prefix.end) return "prefix";
  if (index >= b.kept.start) return "kept";
  return "context";
}
