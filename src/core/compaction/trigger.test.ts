import { describe, expect, it } from "vitest";
import type { AssistantMessage, SessionEntry } from "../session/types.ts";
import { loadFixture, pathThroughLine } from "./test-fixture.ts";
import { DEFAULT_COMPACTION_SETTINGS } from "./tokens.ts";
import { autoCompactionCheck } from "./trigger.ts";

const TS = "2026-01-01T00:00:00.000Z";
const reply = (
  id: string,
  parentId: string | null,
  total: number,
  stopReason: AssistantMessage["stopReason"] = "stop",
) =>
  ({
    type: "message",
    id,
    parentId,
    timestamp: TS,
    message: {
      role: "assistant",
      content: [{ type: "text", text: "ok" }],
      api: "x",
      provider: "p",
      model: "m",
      usage: {
        input: total,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: total,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason,
      timestamp: 0,
    },
  }) as SessionEntry;
const user = (id: string, parentId: string | null) =>
  ({
    type: "message",
    id,
    parentId,
    timestamp: TS,
    message: { role: "user", content: "x".repeat(400), timestamp: 0 },
  }) as SessionEntry;

describe("autoCompactionCheck", () => {
  const settings = { ...DEFAULT_COMPACTION_SETTINGS };

  it("compares the last reply's reported total with window − reserve", () => {
    const path = [user("u", null), reply("a", "u", 190000)];
    expect(autoCompactionCheck(path, 200000, settings)).toEqual({
      compact: true,
      contextTokens: 190000,
      threshold: 183616,
    });
    expect(autoCompactionCheck(path, 250000, settings).compact).toBe(false);
    expect(autoCompactionCheck(path, 200000, { ...settings, enabled: false }).skipped).toBe("disabled");
  });

  it("uses the estimate after an error reply, skips aborted replies and sessions without usage", () => {
    const withError = [
      user("u", null),
      reply("a", "u", 190000),
      user("u2", "a"),
      reply("e", "u2", 0, "error"),
    ];
    expect(autoCompactionCheck(withError, 200000, settings)).toMatchObject({
      compact: true,
      contextTokens: 190000 + 100 + 1,
    });
    const aborted = [user("u", null), reply("a", "u", 190000), reply("b", "a", 5, "aborted")];
    expect(autoCompactionCheck(aborted, 200000, settings).skipped).toBe("aborted");
    expect(autoCompactionCheck([user("u", null)], 200000, settings).skipped).toBe("no-usage");
  });

  it("never triggers on usage from before the latest compaction", () => {
    const path = [
      user("u", null),
      reply("a", "u", 190000),
      {
        type: "compaction",
        id: "c",
        parentId: "a",
        timestamp: TS,
        summary: "s",
        firstKeptEntryId: "a",
        tokensBefore: 190000,
      } as SessionEntry,
    ];
    expect(autoCompactionCheck(path, 200000, settings).skipped).toBe("stale-usage");
    const after = [...path, user("u2", "c"), reply("b", "u2", 30000)];
    expect(autoCompactionCheck(after, 200000, settings)).toMatchObject({
      compact: false,
      contextTokens: 30000,
    });
  });

  it("on the fixture at line 359: 175004 tokens triggers with a 180k window, not with 200k", () => {
    const path = pathThroughLine(loadFixture(), 359);
    expect(autoCompactionCheck(path, 180000, settings)).toMatchObject({
      compact: true,
      contextTokens: 175004,
    });
    expect(autoCompactionCheck(path, 200000, settings)).toMatchObject({
      compact: false,
      contextTokens: 175004,
    });
  });
});
