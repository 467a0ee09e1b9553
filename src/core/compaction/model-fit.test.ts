/** Settings fitted to the model: pi's numbers from 64k up, shares below; threshold above the start; max_tokens within the room. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitToModel, modelKeepRecent, modelReserve, requestMaxTokens } from "./model-fit.ts";

const base = { reserveTokens: null, keepRecentTokens: null, startTokens: 900 };

describe("fitToModel", () => {
  it("large windows get pi 1.6's numbers unchanged", () => {
    const f = fitToModel({ ...base, contextWindow: 128_000, outputLimit: 16_384 });
    expect(f).toMatchObject({ reserveTokens: 16_384, keepRecentTokens: 20_000, threshold: 128_000 - 16_384 });
    expect(f.problems).toEqual([]);
  });

  it("an 8k model with default settings: a quarter of the window reserved, the threshold well above the start", () => {
    const f = fitToModel({ ...base, contextWindow: 8192, outputLimit: 4096 });
    expect(f.reserveTokens).toBe(2048);
    expect(f.keepRecentTokens).toBe(2500);
    expect(f.threshold).toBe(6144);
    expect(f.outputBudget).toBe(4096);
    expect(f.problems).toEqual([]);
  });

  it("a reserve larger than the window is said, with the fix, and the threshold stays above the start", () => {
    const f = fitToModel({ ...base, reserveTokens: 16_384, contextWindow: 8192, outputLimit: 4096 });
    expect(f.threshold).toBeGreaterThan(900);
    expect(f.reserveSource).toBe("adjusted");
    expect(f.problems.map((p) => p.setting)).toContain("reserve");
    expect(f.problems[0]!.fix).toMatch(/Clear it to follow the model, or set it below 7,292/);
  });

  it("a keep-recent the conversation cannot reach is pointless: said and adjusted", () => {
    const f = fitToModel({ ...base, keepRecentTokens: 40_000, contextWindow: 32_768, outputLimit: 8192 });
    expect(f.keepSource).toBe("adjusted");
    expect(f.keepRecentTokens).toBeLessThan(f.threshold - 900);
    expect(f.problems.find((p) => p.setting === "keep")?.message).toMatch(/summarize nothing/);
  });

  it("a share of the window at or below the start is said and moved above it", () => {
    const f = fitToModel({
      ...base,
      contextWindow: 8192,
      outputLimit: 4096,
      trigger: { kind: "percent", percent: 5 },
    });
    expect(f.threshold).toBeGreaterThan(900);
    expect(f.problems.map((p) => p.setting)).toEqual(["trigger"]);
  });

  it("property: the threshold is above the start whenever the window leaves room", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1024, max: 2_000_000 }),
        fc.integer({ min: 0, max: 50_000 }),
        fc.option(fc.integer({ min: 0, max: 3_000_000 })),
        fc.option(fc.integer({ min: 0, max: 3_000_000 })),
        fc.option(fc.integer({ min: 1, max: 100 })),
        (window, start, reserve, keep, percent) => {
          const f = fitToModel({
            contextWindow: window,
            outputLimit: 16_384,
            reserveTokens: reserve,
            keepRecentTokens: keep,
            startTokens: start,
            ...(percent !== null ? { trigger: { kind: "percent" as const, percent } } : {}),
          });
          if (window > start) expect(f.threshold).toBeGreaterThan(start);
          if (f.threshold > start) expect(f.keepRecentTokens).toBeLessThan(f.threshold - start);
        },
      ),
    );
  });
});

describe("requestMaxTokens", () => {
  it("is pi-ai's clamp for large windows", () => {
    // pi: min(16384, 128000 − 10000 − max(4096, 1500)) = 16384; near the top: window − input − 15 %.
    expect(requestMaxTokens(128_000, 10_000, 16_384)).toBe(16_384);
    expect(requestMaxTokens(128_000, 120_000, 16_384)).toBe(128_000 - 120_000 - 4096);
  });

  it("an 8k window: never more than the room left", () => {
    expect(requestMaxTokens(8192, 1000, 4096)).toBe(4096);
    // Below 32k of output pi keeps only the fixed margin (a sixteenth of a small window).
    expect(requestMaxTokens(8192, 4000, 4096)).toBe(8192 - 4000 - 512);
    expect(requestMaxTokens(8192, 6144, 4096)).toBe(8192 - 6144 - 512);
    expect(requestMaxTokens(8192, 8000, 4096)).toBe(1);
  });

  it("property: within the room left whenever there is any", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1024, max: 2_000_000 }),
        fc.nat(2_000_000),
        fc.integer({ min: 1, max: 200_000 }),
        (w, input, budget) => {
          const m = requestMaxTokens(w, input, budget);
          expect(m).toBeGreaterThanOrEqual(1);
          expect(m).toBeLessThanOrEqual(budget);
          if (w - input >= 1) expect(m).toBeLessThanOrEqual(w - input);
        },
      ),
    );
  });

  it("model shares are continuous at 64k", () => {
    expect(modelReserve(65_535)).toBe(16_383);
    expect(modelKeepRecent(65_535)).toBe(19_999);
  });
});
