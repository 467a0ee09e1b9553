/** keepPiLoadout and the prompt rule for sessions whose system messages hold only pins. */
import { describe, expect, it } from "vitest";
import { currentSystemMessage } from "../session/system-prompt.ts";
import type { SystemMessage } from "../session/types.ts";
import { keepPiLoadout, PI_DEFAULT_TOOL_NAMES } from "./pi-loadout.ts";
import { declaresPrompt, pinPatch } from "./pins.ts";
import { loadoutChange, PROMPT_SECTION } from "./settings.ts";

const asMessage = (patch: object): SystemMessage =>
  ({ ...patch, role: "system", timestamp: 1 }) as SystemMessage;
const tool = { name: "read", description: "Read a file.", parameters: { type: "object" } };

describe("system messages Cutpoint appends keep pi's loadout", () => {
  it("on a session without a system message, a pin also declares pi's default tools", () => {
    const p = pinPatch(undefined, { kind: "add", text: "rule", id: "r" });
    if (!p.ok) throw new Error(p.error);
    const patch = keepPiLoadout(undefined, { content: "", sections: p.sections });
    expect(asMessage(patch).toolsAdded?.map((t) => t.name)).toEqual([...PI_DEFAULT_TOOL_NAMES]);
    expect(patch.sections).toEqual(p.sections);
  });

  it("on a session with a system message, or a patch that declares tools, nothing is added", () => {
    const current = asMessage({ content: "base", toolsAdded: [tool] });
    const patch = { content: "", sections: { "pin-a": "x" } };
    expect(keepPiLoadout(current, patch)).toBe(patch);
    const declaring = { content: "", toolsAdded: [tool] };
    expect(keepPiLoadout(undefined, declaring)).toBe(declaring);
  });

  it("a session holding only pins declares no prompt: Cutpoint's agent adds its own on its first run", () => {
    const pinsOnly = currentSystemMessage([
      asMessage(keepPiLoadout(undefined, { content: "", sections: { "pin-a": "<pin-a>\nx\n</pin-a>" } })),
    ]);
    expect(declaresPrompt(pinsOnly)).toBe(false);
    expect(declaresPrompt(undefined)).toBe(false);
    expect(declaresPrompt(asMessage({ content: "You are pi." }))).toBe(true);
    expect(declaresPrompt(asMessage({ content: "", sections: { preamble: "p" } }))).toBe(true);
    const change = loadoutChange(pinsOnly, { prompt: "CUTPOINT", tools: [tool] });
    expect(change?.sections).toEqual({ [PROMPT_SECTION]: "CUTPOINT" });
    expect(asMessage(change ?? {}).toolsAdded?.map((t) => t.name)).toEqual(["read"]);
    const declared = currentSystemMessage([
      asMessage({ content: "", sections: { prompt: "P" }, toolsAdded: [tool] }),
    ]);
    expect(loadoutChange(declared, { prompt: "CUTPOINT", tools: [tool] })).toBeUndefined();
  });
});
