/** pi's settings.json and models.json read as pi 1.6 reads them: its SettingsManager is the oracle. */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PI_NODE, PI_PACKAGE, piAvailable } from "../../../e2e/lib/pi-oracle.ts";
import { readPiModels, readPiSettings, resolvePiCompaction } from "./pi-settings.ts";

interface Case {
  settings: unknown;
  model?: { provider: string; id: string };
}
type PiAnswer = { enabled: boolean; reserveTokens: number; keepRecentTokens: number } | { error: true };

/** pi's SettingsManager.getCompactionSettings for each case, in one run of pi's Node. */
function piResolve(cases: Case[]): PiAnswer[] {
  const manager = join(PI_PACKAGE, "dist/core/settings-manager.js");
  const script = `
    import { SettingsManager } from ${JSON.stringify(manager)};
    const cases = JSON.parse(process.argv[1]);
    const out = cases.map((c) => {
      try { return SettingsManager.inMemory(c.settings).getCompactionSettings(c.model); }
      catch { return { error: true }; }
    });
    process.stdout.write(JSON.stringify(out));
  `;
  const stdout = execFileSync(PI_NODE, ["--input-type=module", "-e", script, JSON.stringify(cases)], {
    encoding: "utf8",
  });
  return JSON.parse(stdout) as PiAnswer[];
}

function ours(c: Case): PiAnswer {
  const file = readPiSettings(JSON.stringify(c.settings));
  if (!file.ok) return { error: true };
  const resolved = resolvePiCompaction(
    file.value,
    c.model && { provider: c.model.provider, modelId: c.model.id },
  );
  if (!resolved.ok) return { error: true };
  const r = resolved.value;
  return { enabled: r.enabled, reserveTokens: r.reserveTokens, keepRecentTokens: r.keepRecentTokens };
}

const MODEL = { provider: "ollama", id: "qwen3:8b" };

describe("settings.json's compaction block", () => {
  it("resolves override → ordinary → default, and says where each figure came from", () => {
    const file = readPiSettings(
      JSON.stringify({
        theme: "dark",
        compaction: {
          enabled: false,
          reserveTokens: 8000,
          modelOverrides: { "ollama/qwen3:8b": { keepRecentTokens: 1500 } },
        },
      }),
    );
    expect(file.ok).toBe(true);
    if (!file.ok) return;
    const r = resolvePiCompaction(file.value, { provider: "ollama", modelId: "qwen3:8b" });
    expect(r.ok && r.value).toEqual({
      enabled: false,
      reserveTokens: 8000,
      keepRecentTokens: 1500,
      source: { enabled: "settings", reserveTokens: "settings", keepRecentTokens: "model override" },
    });
    const other = resolvePiCompaction(file.value, { provider: "openai", modelId: "qwen3:8b" });
    expect(other.ok && other.value.keepRecentTokens).toBe(20_000);
    expect(other.ok && other.value.source.keepRecentTokens).toBe("pi default");
  });

  it("says where a broken file is broken", () => {
    const r = readPiSettings('{\n  "compaction": {\n    "reserveTokens": 8000,\n  }\n}');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^settings\.json, line 4, column \d+: not valid JSON/);
    const bad = readPiSettings(
      JSON.stringify({
        compaction: { keepRecentTokens: -1, modelOverrides: { "a/b": { reserveTokens: "8k" } } },
      }),
    );
    expect(bad.ok && bad.value.problems).toEqual([
      "settings.json: compaction.keepRecentTokens is -1: pi expects a non-negative whole number",
      'settings.json: compaction.modelOverrides["a/b"].reserveTokens is "8k": pi expects a non-negative whole number',
    ]);
    expect(bad.ok && resolvePiCompaction(bad.value, undefined)).toEqual({
      ok: false,
      error: "settings.json: compaction.keepRecentTokens is -1: pi expects a non-negative whole number",
    });
  });
});

describe("models.json's windows", () => {
  it("a models entry takes pi's defaults for what it leaves out; an override only what it says", () => {
    const r = readPiModels(
      JSON.stringify({
        providers: {
          ollama: {
            baseUrl: "http://localhost:11434/v1",
            api: "openai-completions",
            models: [{ id: "qwen3:8b", contextWindow: 6000 }, { id: "llama3.2" }],
          },
          openai: { modelOverrides: { "gpt-4o": { contextWindow: 64_000 }, "gpt-5": { name: "x" } } },
        },
      }),
    );
    expect(r).toEqual({
      ok: true,
      value: {
        "ollama/qwen3:8b": { contextWindow: 6000, maxTokens: 16_384 },
        "ollama/llama3.2": { contextWindow: 128_000, maxTokens: 16_384 },
        "openai/gpt-4o": { contextWindow: 64_000 },
      },
    });
  });

  it("refuses what pi refuses, with the place", () => {
    expect(readPiModels("{}")).toMatchObject({ ok: false });
    expect(
      readPiModels(JSON.stringify({ providers: { a: { models: [{ id: "m", contextWindow: 0 }] } } })),
    ).toEqual({
      ok: false,
      error: 'models.json: providers["a"].models[0].contextWindow is 0: pi expects a number above 0',
    });
  });
});

describe.skipIf(!piAvailable())("pi 1.6's SettingsManager agrees", () => {
  it("on hand-picked files and 200 generated ones", () => {
    const token = fc.oneof(
      fc.constant(undefined),
      fc.nat({ max: 50_000 }),
      fc.constantFrom(-1, 1.5, "100", null, 2 ** 60),
    );
    const tokens = fc.record({ reserveTokens: token, keepRecentTokens: token }, { requiredKeys: [] });
    const settings = fc.record(
      {
        compaction: fc.record(
          {
            enabled: fc.oneof(fc.boolean(), fc.constant(undefined)),
            reserveTokens: token,
            keepRecentTokens: token,
            modelOverrides: fc.dictionary(fc.constantFrom("ollama/qwen3:8b", "openai/gpt-4o", "x/y"), tokens),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    );
    const generated = fc
      .sample(
        fc.tuple(settings, fc.constantFrom(undefined, MODEL, { provider: "openai", id: "gpt-4o" })),
        200,
      )
      .map(([s, model]): Case => ({ settings: JSON.parse(JSON.stringify(s)) as unknown, model }));
    const cases: Case[] = [
      { settings: {} },
      { settings: { compaction: { reserveTokens: 0, keepRecentTokens: 0 } }, model: MODEL },
      {
        settings: { compaction: { modelOverrides: { "ollama/qwen3:8b": { reserveTokens: 2048 } } } },
        model: MODEL,
      },
      ...generated,
    ];
    const pi = piResolve(cases);
    const mine = cases.map(ours);
    // Both kinds of answer are in the sample: figures and refusals.
    const refused = pi.filter((a) => "error" in a).length;
    expect(refused).toBeGreaterThan(10);
    expect(refused).toBeLessThan(cases.length - 10);
    for (const [i, c] of cases.entries())
      expect({ case: c, answer: mine[i] }).toEqual({ case: c, answer: pi[i] });
  });
});
