/** What the masking panel says when the session moved on under a plan the person saw. */
import { describe, expect, it } from "vitest";
import { maskOvertaken } from "./plan-overtaken.ts";

describe("maskOvertaken", () => {
  it("says nothing while the leaf the plan was drawn on is still the leaf", () => {
    expect(maskOvertaken({ leafId: "a", count: 76 }, "a", 76)).toBeNull();
  });

  it("names the new count and the one the person saw", () => {
    expect(maskOvertaken({ leafId: "a", count: 76 }, "b", 6)).toBe(
      "The session moved on since this plan was shown: now 6 outputs would be masked (the plan you saw masked 76).",
    );
  });

  it("says the plan moved on even when the count is the same", () => {
    expect(maskOvertaken({ leafId: "a", count: 3 }, "b", 3)).toBe(
      "The session moved on since this plan was shown: now 3 outputs would be masked.",
    );
  });

  it("says when nothing is left to mask, and nothing when nothing was planned either", () => {
    expect(maskOvertaken({ leafId: "a", count: 1 }, "b", 0)).toContain("now no tool output would be masked");
    expect(maskOvertaken({ leafId: "a", count: 0 }, "b", 0)).toBeNull();
  });
});
