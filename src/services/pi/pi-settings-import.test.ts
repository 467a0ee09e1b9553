/** Importing pi's settings.json and models.json: the changes listed, what is written, and what the review then uses. */
import { describe, expect, it } from "vitest";
import { freshDb } from "../../test-support/fixture-db.ts";
import {
  DEFAULT_PROVIDER_SETTINGS,
  loadProviderSettings,
  modelLimits,
  withOverride,
} from "../agent/agent-settings.ts";
import { fitSettings } from "../compaction/compaction-fit.ts";
import { DEFAULT_USER_SETTINGS, loadCompactionSettings } from "../compaction/compaction-settings.ts";
import { applyPiImport, planPiImport } from "./pi-settings-import.ts";

const SETTINGS = JSON.stringify({
  theme: "dark",
  compaction: {
    enabled: false,
    keepRecentTokens: 4000,
    modelOverrides: { "ollama/qwen3:8b": { reserveTokens: 1500 }, "openai/gpt-4o": { reserveTokens: "x" } },
  },
});
const MODELS = JSON.stringify({
  providers: {
    ollama: {
      baseUrl: "http://localhost:11434/v1",
      models: [{ id: "qwen3:8b", contextWindow: 6000, maxTokens: 2048 }],
    },
    lmstudio: { models: [{ id: "qwen3:8b", contextWindow: 32_000 }] },
  },
});
const current = {
  provider: { ...DEFAULT_PROVIDER_SETTINGS, overrides: {} },
  compaction: { ...DEFAULT_USER_SETTINGS },
};

describe("planPiImport", () => {
  it("lists every change with its source, and what it skipped", () => {
    const r = planPiImport({ settings: SETTINGS, models: MODELS }, current);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.changes).toEqual([
      {
        what: "Keep recent tokens (all models)",
        before: "follows the model",
        after: "4,000 tokens",
        source: "settings.json compaction.keepRecentTokens",
      },
      {
        what: "When the context passes the threshold",
        before: "ask (the review opens)",
        after: "remind (the meter says so; nothing starts by itself)",
        source: "settings.json compaction.enabled: false",
      },
      {
        what: "qwen3:8b: reserve tokens",
        before: "the setting for all models",
        after: "1,500 tokens",
        source: 'settings.json compaction.modelOverrides["ollama/qwen3:8b"]',
      },
      {
        what: "qwen3:8b: context window",
        before: "128,000 tokens",
        after: "6,000 tokens",
        source: 'models.json providers["ollama"]',
      },
      {
        what: "qwen3:8b: output limit",
        before: "8,192 tokens",
        after: "2,048 tokens",
        source: 'models.json providers["ollama"]',
      },
    ]);
    expect(r.value.problems).toEqual([
      'settings.json: compaction.modelOverrides["openai/gpt-4o"].reserveTokens is "x": pi expects a non-negative whole number',
      "models.json: qwen3:8b is under ollama and lmstudio; ollama's figures are used",
    ]);
  });

  it("refuses a broken file with its line, and nothing chosen", () => {
    expect(planPiImport({ settings: '{\n  "compaction": { ,\n}' }, current)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^settings\.json, line 2, column \d+: not valid JSON/),
    });
    expect(planPiImport({}, current)).toEqual({
      ok: false,
      error: "Choose pi's settings.json, its models.json, or both.",
    });
  });

  it("a figure from pi stops being pi's once changed by hand", () => {
    const r = planPiImport({ models: MODELS }, current);
    if (!r.ok) throw new Error(r.error);
    expect(modelLimits(r.value.provider, "qwen3:8b").fromPi).toEqual(["contextWindow", "maxOutput"]);
    const edited = withOverride(r.value.provider, "qwen3:8b", "contextWindow", 8192);
    expect(modelLimits(edited, "qwen3:8b").fromPi).toEqual(["maxOutput"]);
  });
});

describe("applyPiImport", () => {
  it("writes both settings, and the model's figures are the ones the review and agent fit", async () => {
    const db = freshDb("pi-settings-import");
    const r = planPiImport({ settings: SETTINGS, models: MODELS }, current);
    if (!r.ok) throw new Error(r.error);
    expect(await applyPiImport(db, r.value)).toEqual({ ok: true, value: undefined });
    const provider = await loadProviderSettings(db);
    const compaction = await loadCompactionSettings(db);
    expect(compaction.mode).toBe("remind");
    expect(compaction.keepRecentTokens).toBe(4000);
    const limits = modelLimits(provider, "qwen3:8b");
    expect(limits).toMatchObject({ contextWindow: 6000, maxOutput: 2048, reserveTokens: 1500 });
    const fitted = fitSettings(compaction, limits, 500);
    expect(fitted.contextWindow).toBe(6000);
    expect(fitted.settings.reserveTokens).toBe(1500);
    // Another model keeps the settings for all models.
    expect(fitSettings(compaction, modelLimits(provider, "gpt-4o"), 500).settings.reserveTokens).toBe(16_384);
  });
});
