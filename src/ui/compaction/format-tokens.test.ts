/** Token and count formatting: thousands separators, plurals and a path shortened in the middle. */
import { describe, expect, it } from "vitest";
import { fullTokens, middleEllipsis, plural } from "./format-tokens.ts";

describe("format-tokens", () => {
  it("writes thousands separators and plurals", () => {
    expect(fullTokens(90543)).toBe("90,543");
    expect(plural(1, "message")).toBe("1 message");
    expect(plural(0, "message")).toBe("0 messages");
    expect(plural(1204, "entry", "entries")).toBe("1,204 entries");
  });

  it("shortens a path in the middle, keeping both ends", () => {
    const p = "/Users/badlogic/workspaces/pi-mono/packages/coding-agent/src/core/agent-session.ts";
    const s = middleEllipsis(p, 40);
    expect(s.length).toBe(40);
    expect(s.startsWith("/Users/")).toBe(true);
    expect(s.endsWith("agent-session.ts")).toBe(true);
    expect(s).toContain("…");
    expect(middleEllipsis("short.ts", 40)).toBe("short.ts");
  });
});
