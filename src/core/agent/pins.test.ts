/**
 * Pins as system prompt sections: values, pi-valid names, add/edit/remove patches, and a pin kept
 * verbatim through two compactions until unpinned.
 */
import { describe, expect, it } from "vitest";
import { buildSessionContext } from "../session/context.ts";
import { systemMessageText } from "../session/system-prompt.ts";
import { msg, user } from "../session/test-builders.ts";
import type { SystemMessage } from "../session/types.ts";
import {
  entryPinText,
  isPinSection,
  newPinSection,
  pinPatch,
  pinSectionValue,
  pinsOf,
  pinTextOf,
} from "./pins.ts";
import { PINNED_RULE, pinnedTwiceCompacted, turnsThenCompact, withPin } from "./pins-test-support.ts";
import { promptEdit } from "./settings.ts";

const sys = (sections: Record<string, string>): SystemMessage => ({
  role: "system",
  content: "",
  sections,
  timestamp: 0,
});

describe("pins as system prompt sections", () => {
  it("a pin's value holds the text unchanged and gives it back", () => {
    for (const text of [
      PINNED_RULE,
      "",
      "<pinned>\nx\n</pinned>",
      "<pin-a>\ny\n</pin-a>",
      "  lead\n\ntrail  ",
    ])
      expect(pinTextOf(pinSectionValue("pin-a", text), "pin-a")).toBe(text);
    // Written as pi 1.6 renders a custom section of that name (system-prompt.ts, buildSystemPromptSections).
    expect(pinSectionValue("pin-a", "keep")).toBe("<pin-a>\nkeep\n</pin-a>");
    // Pins written before that form are read too.
    expect(pinTextOf("<pinned>\nold\n</pinned>", "pin-a")).toBe("old");
    expect(pinTextOf("a section written by hand", "pin-a")).toBe("a section written by hand");
  });

  it("section names are pi-valid and unique", () => {
    expect(isPinSection("pin-ab12")).toBe(true);
    expect(isPinSection("prompt")).toBe(false);
    expect(isPinSection("pin-A")).toBe(false);
    const s = sys({ "pin-ab12": "x", "pin-ab12-2": "y" });
    expect(newPinSection(s, "AB12")).toBe("pin-ab12-3");
    expect(newPinSection(undefined, "!!")).toBe("pin-x");
    for (const name of [newPinSection(s, "AB12"), newPinSection(undefined, "Zz_9")])
      expect(name).toMatch(/^[a-z][a-z0-9_-]*$/);
  });

  it("add, edit and remove patch one section; bad changes are refused", () => {
    const add = pinPatch(undefined, { kind: "add", text: "rule", id: "r1" });
    expect(add).toEqual({
      ok: true,
      section: "pin-r1",
      sections: { "pin-r1": pinSectionValue("pin-r1", "rule") },
    });
    expect(pinPatch(undefined, { kind: "add", text: "  \n", id: "r1" }).ok).toBe(false);
    const s = sys({ prompt: "p", "pin-r1": pinSectionValue("pin-r1", "rule") });
    expect(pinsOf(s)).toEqual([
      { section: "pin-r1", text: "rule", value: pinSectionValue("pin-r1", "rule") },
    ]);
    expect(pinPatch(s, { kind: "edit", section: "pin-r1", text: "rule 2" })).toMatchObject({
      ok: true,
      sections: { "pin-r1": pinSectionValue("pin-r1", "rule 2") },
    });
    expect(pinPatch(s, { kind: "edit", section: "pin-r1", text: "rule" }).ok).toBe(false);
    expect(pinPatch(s, { kind: "remove", section: "pin-r1" })).toMatchObject({
      ok: true,
      sections: { "pin-r1": null },
    });
    expect(pinPatch(s, { kind: "remove", section: "prompt" }).ok).toBe(false);
  });

  it("editing the prompt keeps the pins", () => {
    const s = sys({ prompt: "p", tools: "t", "pin-r1": pinSectionValue("pin-r1", "rule") });
    expect(promptEdit(s, "new").sections).toEqual({ prompt: "new", tools: null });
  });

  it("the pin is in the context verbatim after two compactions, and gone after unpinning", () => {
    const path = pinnedTwiceCompacted();
    const ctx = buildSessionContext(path);
    expect(path.filter((e) => e.type === "compaction")).toHaveLength(2);
    // The first message is the latest compaction's system checkpoint; the pin's message was summarized away.
    expect(ctx.messages[0]?.role).toBe("system");
    expect(ctx.entryIds).not.toContain("p1");
    expect(systemMessageText(ctx.systemMessage)).toContain(PINNED_RULE);
    expect(pinsOf(ctx.systemMessage).map((p) => p.text)).toEqual([PINNED_RULE]);
    const unpinned = turnsThenCompact(withPin(path, { kind: "remove", section: "pin-rule" }, "p2"), "three");
    const after = buildSessionContext(unpinned).systemMessage;
    expect(systemMessageText(after)).not.toContain(PINNED_RULE);
    expect(systemMessageText(after)).toContain("You are a test agent.");
    // History keeps the pin: the original system message is still in the file.
    expect(unpinned.some((e) => e.id === "p1")).toBe(true);
  });

  it("the text of a message to pin", () => {
    expect(entryPinText(msg("u", null, user("  do X  ")))).toBe("do X");
    expect(entryPinText(msg("s", null, { role: "system", content: "", timestamp: 0 } as SystemMessage))).toBe(
      "",
    );
  });
});
