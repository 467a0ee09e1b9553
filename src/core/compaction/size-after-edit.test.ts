// Unit tests of sizeAfterEdit: the meter's figure after an edit and what the next reply may report.
import { describe, expect, it } from "vitest";
import type { ContextBreakdown } from "./breakdown.ts";
import { sizeAfterEdit } from "./size-after-edit.ts";

const parts = { systemPrompt: 0, tools: 0, summary: 0, kept: 0, since: 45_807 };

function now(total: number, source: "reported" | "estimated"): ContextBreakdown {
  return {
    ...parts,
    total,
    source,
    estimate: 45_807,
    usageDifference: source === "reported" ? total - 45_807 : 0,
  };
}

describe("sizeAfterEdit", () => {
  it("reported: the meter shows the estimate after the edit, the next reply adds what the provider counts beyond it", () => {
    const r = sizeAfterEdit(now(48_290, "reported"), 22_071);
    expect(r).toEqual({ estimated: 22_071, nextReply: 24_554, beyondEstimate: 2_483 });
  });

  it("estimated: one figure, nothing said of the next reply", () => {
    expect(sizeAfterEdit(now(45_807, "estimated"), 22_071)).toEqual({
      estimated: 22_071,
      nextReply: undefined,
      beyondEstimate: 0,
    });
  });

  it("a provider that counts less than the estimate adds nothing (the estimate is the larger figure)", () => {
    expect(sizeAfterEdit(now(30_000, "reported"), 10_000)).toEqual({
      estimated: 10_000,
      nextReply: undefined,
      beyondEstimate: 0,
    });
  });
});
