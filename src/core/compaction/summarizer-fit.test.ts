// The summarizer check: input plus the output asked for, per request, against the window.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SUMMARY_PROMPT_TOKENS, summarizerFit } from "./summarizer-fit.ts";

const plan = (split: boolean) => ({
  isSplitTurn: split,
  turnPrefixCount: split ? 3 : 0,
  summarizeCount: 10,
  settings: { reserveTokens: 16_384 },
});
const base = { historyTokens: 0, prefixTokens: 0, previousSummaryTokens: 0, focusTokens: 0, window: 128_000 };

describe("summarizerFit", () => {
  it("counts the output budget: 123,115 in is under 128,000 but does not fit with 13,107 out (the issue's case)", () => {
    const fit = summarizerFit(plan(false), { ...base, historyTokens: 123_115 - SUMMARY_PROMPT_TOKENS });
    expect(fit.largest).toMatchObject({ part: "history", input: 123_115, output: 13_107, needed: 136_222 });
    expect(fit.fits).toBe(false);
    expect(fit.over).toBe(8_222);
  });

  it("fits when input + output is within the window, with the model's max output as max_tokens", () => {
    const fit = summarizerFit(plan(false), { ...base, historyTokens: 100_000, maxOutput: 8_000 });
    expect(fit.largest.output).toBe(8_000);
    expect(fit.fits).toBe(true);
    expect(fit.over).toBe(0);
  });

  it("a split turn sends two requests, each checked on its own (the sum of both may exceed the window)", () => {
    const fit = summarizerFit(plan(true), { ...base, historyTokens: 70_000, prefixTokens: 70_000 });
    expect(fit.requests.map((r) => r.part)).toEqual(["history", "turnPrefix"]);
    expect(fit.requests.map((r) => r.output)).toEqual([13_107, 8_192]);
    expect(fit.fits).toBe(true);
  });

  it("property: fits exactly when every request's input + output is within the window", () => {
    fc.assert(
      fc.property(
        fc.nat(300_000),
        fc.nat(300_000),
        fc.nat(20_000),
        fc.boolean(),
        fc.integer({ min: 1_000, max: 400_000 }),
        (h, p, prev, split, window) => {
          const fit = summarizerFit(plan(split), {
            ...base,
            historyTokens: h,
            prefixTokens: p,
            previousSummaryTokens: prev,
            window,
          });
          for (const r of fit.requests) expect(r.needed).toBe(r.input + r.output);
          expect(fit.fits).toBe(fit.requests.every((r) => r.input + r.output <= window));
          expect(fit.over).toBe(Math.max(0, Math.max(...fit.requests.map((r) => r.needed)) - window));
        },
      ),
    );
  });
});
