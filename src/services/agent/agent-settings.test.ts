/**
 * Agent settings: provider settings normalized, presets and model limits with overrides, API keys bound
 * to their origin and masked, and the system prompt per session.
 */
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CutpointDb, createDb, getSetting } from "../../db/index.ts";
import { isKeyRef, keyForRequest } from "../../llm/key-guard.ts";
import { PROVIDER_PRESETS } from "../../llm/providers.ts";
import {
  DEFAULT_SYSTEM_PROMPT,
  getApiKey,
  getSystemPrompt,
  loadProviderSettings,
  maskKey,
  modelLimits,
  normalizeProviderSettings,
  providerChosen,
  removeApiKey,
  saveProviderSettings,
  setApiKey,
  setSystemPrompt,
  withOverride,
  withProvider,
} from "./agent-settings.ts";

let db: CutpointDb;
beforeEach(() => {
  db = createDb("agent-settings-test", { indexedDB: new IDBFactory(), IDBKeyRange });
});
afterEach(() => db.close());

describe("provider settings", () => {
  it("fills defaults for missing or damaged values and maps unknown providers to custom", () => {
    // Nothing chosen yet: no provider and no base URL, so nothing can be contacted.
    expect(normalizeProviderSettings(undefined)).toMatchObject({
      providerId: "none",
      baseUrl: "",
      model: "",
      thinkingLevel: "off",
    });
    expect(providerChosen(normalizeProviderSettings(undefined))).toBe(false);
    expect(normalizeProviderSettings({ providerId: "none", baseUrl: "http://h:1/v1" })).toMatchObject({
      providerId: "custom",
      baseUrl: "http://h:1/v1",
    });
    expect(providerChosen(normalizeProviderSettings({ providerId: "groq" }))).toBe(true);
    const n = normalizeProviderSettings({
      providerId: "nope",
      baseUrl: " http://x/v1 ",
      model: 3,
      thinkingLevel: "extreme",
      overrides: { a: { contextWindow: -1, maxOutput: 100, reasoning: "yes" }, b: "junk", c: {} },
    });
    expect(n).toEqual({
      providerId: "custom",
      baseUrl: "http://x/v1",
      model: "",
      thinkingLevel: "off",
      overrides: { a: { maxOutput: 100 } },
    });
  });

  it("switching presets takes the preset's base URL; custom starts empty and keeps its own", () => {
    const s = normalizeProviderSettings({});
    for (const p of PROVIDER_PRESETS) {
      const next = withProvider(s, p.id);
      expect(next.providerId).toBe(p.id);
      expect(next.baseUrl).toBe(p.baseUrl);
    }
    const custom = { ...withProvider(s, "custom"), baseUrl: "http://127.0.0.1:9/v1" };
    expect(withProvider(custom, "custom").baseUrl).toBe("http://127.0.0.1:9/v1");
  });

  it("model limits: known table, defaults for unknown models, overrides win and can be cleared", () => {
    const s = normalizeProviderSettings({ model: "gpt-4o-mini" });
    expect(modelLimits(s, "gpt-4o-mini")).toMatchObject({
      contextWindow: 128_000,
      maxOutput: 16_384,
      known: true,
    });
    expect(modelLimits(s, "o3-mini").reasoning).toBe(true);
    const unknown = modelLimits(s, "mock-model");
    expect(unknown).toMatchObject({ contextWindow: 128_000, known: false, reasoning: false });
    const o = withOverride(
      withOverride(s, "mock-model", "contextWindow", 8192),
      "mock-model",
      "reasoning",
      true,
    );
    expect(modelLimits(o, "mock-model")).toMatchObject({
      contextWindow: 8192,
      reasoning: true,
      overridden: { contextWindow: true, maxOutput: false, reasoning: true },
    });
    const cleared = withOverride(
      withOverride(o, "mock-model", "contextWindow", undefined),
      "mock-model",
      "reasoning",
      undefined,
    );
    expect(cleared.overrides).toEqual({});
  });

  it("round-trips through the settings table", async () => {
    const s = withOverride(
      {
        ...withProvider(normalizeProviderSettings({}), "groq"),
        model: "llama-3.3-70b",
        thinkingLevel: "low",
      },
      "llama-3.3-70b",
      "maxOutput",
      4000,
    );
    expect((await saveProviderSettings(db, s)).ok).toBe(true);
    expect(await loadProviderSettings(db)).toEqual(s);
  });
});

describe("API keys", () => {
  it("are saved for the origin of the provider's base URL; requests get a ref, never the secret", async () => {
    expect(await getApiKey(db, "openai")).toBe("");
    expect((await setApiKey(db, "openai", "  key-one-xyz  ")).ok).toBe(true);
    expect((await setApiKey(db, "groq", "key-two-xyz")).ok).toBe(true);
    const one = await getApiKey(db, "openai");
    expect(isKeyRef(one)).toBe(true);
    expect(one).not.toContain("key-one");
    expect(await keyForRequest(one, "https://api.openai.com/v1")).toEqual({
      ok: true,
      secret: "key-one-xyz",
    });
    expect(await keyForRequest(await getApiKey(db, "groq"), "https://api.groq.com/openai/v1")).toEqual({
      ok: true,
      secret: "key-two-xyz",
    });
    // The openai key is refused for any other origin.
    const refused = await keyForRequest(one, "https://api.groq.com/openai/v1");
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).not.toContain("key-one");
    await removeApiKey(db, "openai");
    expect(await getApiKey(db, "openai")).toBe("");
    expect(await keyForRequest(one, "https://api.openai.com/v1")).toMatchObject({ ok: false });
    expect(await getSetting(db, "agent.apiKey.openai")).toBeUndefined();
    await setApiKey(db, "groq", "   ");
    expect(await getApiKey(db, "groq")).toBe("");
  });

  it("a custom provider's key follows its base URL: another origin has no key", async () => {
    await saveProviderSettings(
      db,
      normalizeProviderSettings({ providerId: "custom", baseUrl: "http://127.0.0.1:4/v1" }),
    );
    await setApiKey(db, "custom", "custom-key-1");
    expect(isKeyRef(await getApiKey(db, "custom"))).toBe(true);
    await saveProviderSettings(
      db,
      normalizeProviderSettings({ providerId: "custom", baseUrl: "http://127.0.0.1:4/other/v1" }),
    );
    expect(isKeyRef(await getApiKey(db, "custom"))).toBe(true);
    await saveProviderSettings(
      db,
      normalizeProviderSettings({ providerId: "custom", baseUrl: "http://127.0.0.1:5/v1" }),
    );
    expect(await getApiKey(db, "custom")).toBe("");
  });

  it("maskKey never shows more than a third of the key, nor the middle", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }), (key) => {
        const masked = maskKey(key);
        const visible = masked.replace(/•/g, "");
        expect(visible.length).toBeLessThanOrEqual(Math.floor(key.length / 3));
        expect(masked).toContain("••••");
        if (key.length >= 12) expect(masked).not.toContain(key.slice(3, key.length - 4));
      }),
    );
    expect(maskKey("")).toBe("");
  });
});

describe("system prompt per session", () => {
  it("defaults to the coding-agent prompt naming the workspace tools; stores and clears overrides", async () => {
    expect(await getSystemPrompt(db, "s1")).toBe(DEFAULT_SYSTEM_PROMPT);
    for (const tool of ["read", "write", "edit", "ls", "find", "grep"]) {
      expect(DEFAULT_SYSTEM_PROMPT).toMatch(new RegExp(`- ${tool} \\{`));
    }
    await setSystemPrompt(db, "s1", "Be brief.");
    expect(await getSystemPrompt(db, "s1")).toBe("Be brief.");
    expect(await getSystemPrompt(db, "s2")).toBe(DEFAULT_SYSTEM_PROMPT);
    await setSystemPrompt(db, "s1", "   ");
    expect(await getSystemPrompt(db, "s1")).toBe(DEFAULT_SYSTEM_PROMPT);
  });
});
