/**
 * Summary instructions: session over global over default, the presets, what is stored, and how
 * they reach the summarizer's request.
 */
import { describe, expect, it } from "vitest";
import { assistant, msg, user } from "../session/test-builders.ts";
import type { SessionEntry } from "../session/types.ts";
import {
  DEFAULT_SUMMARY_INSTRUCTIONS,
  historyInstructions,
  instructionsLabel,
  instructionsToStore,
  presetOf,
  readStoredInstructions,
  resolveSummaryInstructions,
  SUMMARY_PRESETS,
  UPDATE_WITH_OWN_INSTRUCTIONS,
} from "./instructions.ts";
import { planCompaction } from "./plan.ts";
import { FIRST_SUMMARY_INSTRUCTIONS, UPDATE_SUMMARY_INSTRUCTIONS } from "./prompts.ts";
import { compactionRequests } from "./summarize.ts";

describe("summary instructions", () => {
  it("session > all sessions > default, with the preset named", () => {
    const terse = SUMMARY_PRESETS.find((p) => p.id === "terse")!.text;
    expect(resolveSummaryInstructions(undefined, undefined)).toEqual({
      text: DEFAULT_SUMMARY_INSTRUCTIONS,
      source: "default",
      preset: "standard",
      isDefault: true,
    });
    expect(resolveSummaryInstructions(undefined, { text: terse })).toMatchObject({
      source: "global",
      preset: "terse",
      isDefault: false,
    });
    expect(resolveSummaryInstructions({ text: "mine" }, { text: terse })).toMatchObject({
      text: "mine",
      source: "session",
      preset: "custom",
    });
    // A session may ask for the default while all sessions use another preset.
    expect(resolveSummaryInstructions({ text: DEFAULT_SUMMARY_INSTRUCTIONS }, { text: terse })).toMatchObject(
      { source: "session", preset: "standard", isDefault: true },
    );
  });

  it("presets are distinct, named by their text; stored values are read loosely", () => {
    const texts = new Set(SUMMARY_PRESETS.map((p) => p.text));
    expect(texts.size).toBe(SUMMARY_PRESETS.length);
    for (const p of SUMMARY_PRESETS) expect(presetOf(p.text)).toBe(p.id);
    expect(instructionsLabel(SUMMARY_PRESETS[3]!.text)).toBe("Keep every path and command");
    expect(instructionsLabel("mine")).toBe("Your own");
    expect(presetOf(`${DEFAULT_SUMMARY_INSTRUCTIONS} `)).toBe("custom");
    expect(SUMMARY_PRESETS.find((p) => p.id === "keep-all")!.text).toMatch(/## Commands/);
    expect(readStoredInstructions({ text: "x" })).toEqual({ text: "x" });
    for (const bad of [undefined, null, "x", { text: "  " }, { text: 3 }])
      expect(readStoredInstructions(bad)).toBeUndefined();
  });

  it("saving the inherited text (or a blank one) stores nothing", () => {
    const g = { text: "GLOBAL" };
    expect(instructionsToStore("global", DEFAULT_SUMMARY_INSTRUCTIONS, undefined)).toBeNull();
    expect(instructionsToStore("global", "x", undefined)).toEqual({ text: "x" });
    expect(instructionsToStore("session", "GLOBAL", g)).toBeNull();
    expect(instructionsToStore("session", DEFAULT_SUMMARY_INSTRUCTIONS, g)).toEqual({
      text: DEFAULT_SUMMARY_INSTRUCTIONS,
    });
    expect(instructionsToStore("session", DEFAULT_SUMMARY_INSTRUCTIONS, undefined)).toBeNull();
    expect(instructionsToStore("session", " ", g)).toBeNull();
    expect(instructionsToStore("session", null, g)).toBeNull();
  });

  it("the default gives the default requests; own text replaces them, after a merge request when updating", () => {
    expect(historyInstructions(undefined, false)).toBe(FIRST_SUMMARY_INSTRUCTIONS);
    expect(historyInstructions(DEFAULT_SUMMARY_INSTRUCTIONS, true)).toBe(UPDATE_SUMMARY_INSTRUCTIONS);
    expect(historyInstructions("  ", true)).toBe(UPDATE_SUMMARY_INSTRUCTIONS);
    expect(historyInstructions("OWN", false)).toBe("OWN");
    expect(historyInstructions("OWN", true)).toBe(`${UPDATE_WITH_OWN_INSTRUCTIONS}\n\nOWN`);
  });

  it("the summarizer request carries the instructions, and the focus still adds to them", () => {
    const long = (t: string) => `${t} ${"filler words here ".repeat(120)}`;
    const path: SessionEntry[] = [
      msg("u1", null, user(long("first"))),
      msg("a1", "u1", assistant(long("one"))),
      msg("u2", "a1", user(long("second"))),
      msg("a2", "u2", assistant(long("two"))),
    ];
    const planned = planCompaction(path, { keepRecentTokens: 300, reserveTokens: 16384 });
    if (!planned.ok) throw new Error(planned.reason);
    const own = compactionRequests(planned.plan, { instructions: "KEEP-EVERY-PATH", focus: "the parser" });
    expect(own.history?.userMessage).toContain("KEEP-EVERY-PATH");
    expect(own.history?.userMessage).not.toContain(FIRST_SUMMARY_INSTRUCTIONS);
    expect(own.history?.userMessage).toMatch(/KEEP-EVERY-PATH[\s\S]*the parser$/);
    const plain = compactionRequests(planned.plan, {});
    expect(plain.history?.userMessage).toContain(FIRST_SUMMARY_INSTRUCTIONS);
  });
});
