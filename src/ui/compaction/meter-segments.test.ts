// Unit tests of the meter bar's segments: they add up to the meter's figure, whatever the provider counted.
import { describe, expect, it } from "vitest";
import type { ContextBreakdown } from "../../core/compaction/breakdown.ts";
import { partValues, segmentTokens } from "./meter-segments.ts";

const b = (total: number, source: "reported" | "estimated"): ContextBreakdown => {
  const parts = { systemPrompt: 1_000, tools: 2_000, summary: 3_000, kept: 50_000, since: 180_000 };
  const estimate = 236_000;
  return { ...parts, total, source, estimate, usageDifference: source === "reported" ? total - estimate : 0 };
};
const sum = (r: Record<string, number>) => Object.values(r).reduce((a, x) => a + x, 0);

describe("segmentTokens", () => {
  it("estimated: the parts as they are, adding up to the total", () => {
    const s = segmentTokens(b(236_000, "estimated"));
    expect(s).toEqual(partValues(b(236_000, "estimated")));
    expect(sum(s)).toBe(236_000);
  });

  it("the provider counts more: its part beyond the estimate is a segment of its own", () => {
    const s = segmentTokens(b(240_000, "reported"));
    expect(s.usage).toBe(4_000);
    expect(sum(s)).toBe(240_000);
  });

  it("the provider counts less (30k of an estimated 236k): the parts scale to 30k, never a full bar", () => {
    const s = segmentTokens(b(30_000, "reported"));
    expect(sum(s)).toBeCloseTo(30_000, 6);
    expect(s.usage).toBe(0);
    expect(s.since / s.kept).toBeCloseTo(180 / 50, 6);
  });
});
