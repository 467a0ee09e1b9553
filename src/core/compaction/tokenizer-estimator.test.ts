/** The tokenizer estimator: the encoding picked per model, and real token counts of the parts pi counts. */
import { describe, expect, it } from "vitest";
import { encodingForModel, loadTokenizerEstimator } from "./tokenizer-estimator.ts";
import { estimateMessageTokensPi } from "./tokens.ts";

describe("tokenizer estimator", () => {
  it("picks o200k_base for gpt-4o / 4.1 / 5 / o-series, cl100k_base otherwise", () => {
    for (const m of ["gpt-4o", "gpt-4o-mini", "gpt-4.1", "openai/gpt-5", "o3-mini", "o1", "o4-mini"])
      expect(encodingForModel(m)).toBe("o200k_base");
    for (const m of ["gpt-4", "gpt-3.5-turbo", "claude-opus-4-5", "llama-3", undefined])
      expect(encodingForModel(m)).toBe("cl100k_base");
  });

  it("counts real tokens of the same parts pi counts (images 1200 tokens)", async () => {
    const r = await loadTokenizerEstimator("gpt-4o");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.encoding).toBe("o200k_base");
    expect(r.value.id).toBe("tokenizer:o200k_base");
    expect(r.value.estimateMessage({ role: "user", content: "hello world", timestamp: 0 })).toBe(2);
    expect(
      r.value.estimateMessage({
        role: "user",
        content: [{ type: "image", data: "", mimeType: "image/png" }],
        timestamp: 0,
      }),
    ).toBe(1200);
    // Special-token text is counted, not rejected.
    expect(
      r.value.estimateMessage({ role: "user", content: "a <|endoftext|> b", timestamp: 0 }),
    ).toBeGreaterThan(3);
    // chars/4 overestimates English prose.
    const prose = {
      role: "user" as const,
      content: "The quick brown fox jumps over the lazy dog. ".repeat(50),
      timestamp: 0,
    };
    expect(r.value.estimateMessage(prose)).toBeLessThan(estimateMessageTokensPi(prose));
  });

  it("loads cl100k_base for other models", async () => {
    const r = await loadTokenizerEstimator("gpt-4");
    expect(r.ok && r.encoding).toBe("cl100k_base");
    expect(r.ok && r.value.estimateMessage({ role: "user", content: "hello world", timestamp: 0 })).toBe(2);
  });
});
