/** Provider presets (ids, OpenAI-compatible base URLs, found by URL) and model info (windows, prices). */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_CONTEXT_WINDOW,
  modelInfo,
  PROVIDER_PRESETS,
  presetForBaseUrl,
  providerPreset,
} from "./providers.ts";

describe("provider presets", () => {
  it("has the expected presets with OpenAI-compatible base URLs", () => {
    expect(PROVIDER_PRESETS.map((p) => p.id)).toEqual([
      "openai",
      "openrouter",
      "groq",
      "deepseek",
      "mistral",
      "together",
      "ollama",
      "lmstudio",
      "custom",
    ]);
    expect(providerPreset("ollama").baseUrl).toBe("http://localhost:11434/v1");
    expect(providerPreset("lmstudio").baseUrl).toBe("http://localhost:1234/v1");
    expect(providerPreset("ollama").corsHint).toMatch(/OLLAMA_ORIGINS/);
    expect(providerPreset("unknown").id).toBe("custom");
    for (const p of PROVIDER_PRESETS)
      if (p.id !== "custom") expect(p.baseUrl).toMatch(/^https?:\/\/[^ ]+\/v1$/);
  });

  it("recognizes a preset from its base URL", () => {
    expect(presetForBaseUrl("https://api.groq.com/openai/v1/").id).toBe("groq");
    expect(presetForBaseUrl("https://example.com/v1").id).toBe("custom");
  });
});

describe("modelInfo", () => {
  it("knows common windows, with vendor prefixes and tags", () => {
    expect(modelInfo("gpt-4o").contextWindow).toBe(128_000);
    expect(modelInfo("gpt-4o-mini").prices?.input).toBe(0.15);
    expect(modelInfo("openai/gpt-4.1").contextWindow).toBe(1_047_576);
    expect(modelInfo("o4-mini")).toMatchObject({ contextWindow: 200_000, reasoning: true });
    expect(modelInfo("o3")).toMatchObject({ contextWindow: 200_000, reasoning: true });
    expect(modelInfo("llama3.1:8b").contextWindow).toBe(128_000);
    expect(modelInfo("llama-3.3-70b-versatile").contextWindow).toBe(128_000);
    expect(modelInfo("deepseek-reasoner").reasoning).toBe(true);
    expect(modelInfo("deepseek-coder").contextWindow).toBe(64_000);
  });
  it("falls back to a 128k window for unknown models", () => {
    expect(modelInfo("my-local-model").contextWindow).toBe(DEFAULT_CONTEXT_WINDOW);
    expect(modelInfo("my-local-model").prices).toBeUndefined();
  });
});
