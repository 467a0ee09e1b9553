/**
 * The meter bar's segments: the context's parts and the provider's count beyond the estimate,
 * adding up to the meter's figure. When the provider counts less than the estimate, the parts are
 * drawn scaled to its count, so that the bar never shows more than the text says (pure).
 */
import type { ContextBreakdown } from "../../core/compaction/breakdown.ts";

export const SEGMENTS = [
  ["system", "System prompt"],
  ["tools", "Tools"],
  ["summary", "Summary"],
  ["kept", "Kept by the last compaction"],
  ["since", "Since the last compaction"],
  ["usage", "Provider usage beyond the estimate"],
] as const;

export type SegmentKey = (typeof SEGMENTS)[number][0];

/** The parts as estimated (the breakdown's words); `usage` is the provider's count beyond them. */
export function partValues(n: ContextBreakdown): Record<SegmentKey, number> {
  return {
    system: n.systemPrompt,
    tools: n.tools,
    summary: n.summary,
    kept: n.kept,
    since: n.since,
    usage: Math.max(0, n.usageDifference),
  };
}

/** The tokens each segment is drawn at: they add up to the meter's total. */
export function segmentTokens(n: ContextBreakdown): Record<SegmentKey, number> {
  const v = partValues(n);
  const sum = v.system + v.tools + v.summary + v.kept + v.since + v.usage;
  if (sum <= n.total || sum === 0) return v;
  const k = Math.max(0, n.total) / sum;
  return {
    system: v.system * k,
    tools: v.tools * k,
    summary: v.summary * k,
    kept: v.kept * k,
    since: v.since * k,
    usage: v.usage * k,
  };
}
