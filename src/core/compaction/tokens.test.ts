/**
 * Token counts: pi's chars/4 estimate per role, the context size from the last usable usage plus
 * estimates (the fixture's 175,004), and when to compact.
 */
import { describe, expect, it } from "vitest";
import { buildSessionContext } from "../session/context.ts";
import type { AgentMessage, AssistantMessage } from "../session/types.ts";
import { createPlanner } from "./planner.ts";
import { loadFixture, pathThroughLine } from "./test-fixture.ts";
import {
  estimateContextTokens,
  estimateMessageTokensPi,
  PI_ESTIMATOR,
  shouldCompact,
  usageTokens,
} from "./tokens.ts";

const usage = (totalTokens: number, parts: Partial<AssistantMessage["usage"]> = {}) => ({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  ...parts,
});
const reply = (
  text: string,
  total: number,
  stopReason: AssistantMessage["stopReason"] = "stop",
): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "x",
  provider: "p",
  model: "m",
  usage: usage(total),
  stopReason,
  timestamp: 1,
});

describe("pi estimator (chars / 4 rounded up)", () => {
  it("counts each role's parts", () => {
    expect(estimateMessageTokensPi({ role: "user", content: "abcde", timestamp: 0 })).toBe(2);
    expect(
      estimateMessageTokensPi({
        role: "user",
        content: [
          { type: "text", text: "abcd" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
        ],
        timestamp: 0,
      }),
    ).toBe(Math.ceil((4 + 4800) / 4));
    const a: AgentMessage = {
      ...reply("hi", 0),
      content: [
        { type: "text", text: "hello" },
        { type: "thinking", thinking: "hmm" },
        { type: "toolCall", id: "1", name: "read", arguments: { path: "/a" } },
      ],
    };
    expect(estimateMessageTokensPi(a)).toBe(
      Math.ceil((5 + 3 + 4 + JSON.stringify({ path: "/a" }).length) / 4),
    );
    expect(
      estimateMessageTokensPi({
        role: "toolResult",
        toolCallId: "1",
        toolName: "read",
        content: [
          { type: "text", text: "x".repeat(9) },
          { type: "image", data: "", mimeType: "image/png" },
        ],
        isError: false,
        timestamp: 0,
      }),
    ).toBe(Math.ceil((9 + 4800) / 4));
    expect(
      estimateMessageTokensPi({
        role: "bashExecution",
        command: "ls",
        output: "abc",
        exitCode: 0,
        cancelled: false,
        truncated: false,
        timestamp: 0,
      }),
    ).toBe(2);
    expect(
      estimateMessageTokensPi({
        role: "compactionSummary",
        summary: "x".repeat(8),
        tokensBefore: 1,
        timestamp: 0,
      }),
    ).toBe(2);
    expect(
      estimateMessageTokensPi({ role: "branchSummary", summary: "x".repeat(9), fromId: "a", timestamp: 0 }),
    ).toBe(3);
    expect(
      estimateMessageTokensPi({
        role: "custom",
        customType: "t",
        content: "x".repeat(3),
        display: true,
        timestamp: 0,
      }),
    ).toBe(1);
  });

  it("counts UTF-16 code units, like JavaScript string lengths", () => {
    expect(estimateMessageTokensPi({ role: "user", content: "😀😀", timestamp: 0 })).toBe(1);
    expect(estimateMessageTokensPi({ role: "user", content: "😀😀😀", timestamp: 0 })).toBe(2);
  });

  it("caches per message object", () => {
    const m: AgentMessage = { role: "user", content: "abcd", timestamp: 0 };
    expect(PI_ESTIMATOR.estimateMessage(m)).toBe(1);
    (m as { content: string }).content = "x".repeat(400); // mutation is not seen: messages are immutable
    expect(PI_ESTIMATOR.estimateMessage(m)).toBe(1);
  });
});

describe("context size", () => {
  it("uses the last non-aborted, non-error reply with usage > 0, plus estimates after it", () => {
    const messages: AgentMessage[] = [
      { role: "user", content: "x".repeat(40), timestamp: 0 },
      reply("a", 1000),
      { role: "user", content: "x".repeat(8), timestamp: 0 },
      reply("b", 5000, "aborted"),
      reply("c", 6000, "error"),
      reply("d", 0),
    ];
    const r = estimateContextTokens(messages);
    expect(r.source).toBe("reported");
    expect(r.usageIndex).toBe(1);
    expect(r.tokens).toBe(1000 + 2 + 1 + 1 + 1);
  });

  it("falls back to the sum of the parts when totalTokens is 0, and to estimates without usage", () => {
    expect(usageTokens(usage(0, { input: 10, output: 5, cacheRead: 3, cacheWrite: 2 }))).toBe(20);
    const r = estimateContextTokens([
      { role: "user", content: "x".repeat(40), timestamp: 0 },
      reply("abcd", 0),
    ]);
    expect(r).toMatchObject({ source: "estimated", usageIndex: null, tokens: 11 });
  });

  it("ignores usage before a given index (stale-usage guard)", () => {
    const messages: AgentMessage[] = [
      reply("a", 9000),
      { role: "compactionSummary", summary: "abcd", tokensBefore: 9000, timestamp: 0 },
    ];
    expect(estimateContextTokens(messages).tokens).toBe(9001);
    expect(estimateContextTokens(messages, { ignoreUsageBefore: 1 })).toMatchObject({
      tokens: 2,
      source: "estimated",
    });
  });

  it("on the fixture: 175004 reported at line 359; the planner's context size agrees with the built context", () => {
    const fixture = loadFixture();
    const path = pathThroughLine(fixture, 359);
    const ctx = buildSessionContext(path);
    expect(estimateContextTokens(ctx.messages)).toMatchObject({ tokens: 175004, source: "reported" });
    const planner = createPlanner();
    planner.setPath(path);
    expect(planner.contextTokens()).toEqual({ tokens: 175004, source: "reported" });
  });
});

describe("shouldCompact", () => {
  const settings = { enabled: true, reserveTokens: 16384 };
  it("triggers strictly above window − reserve, only when enabled", () => {
    expect(shouldCompact(200000 - 16384, 200000, settings)).toBe(false);
    expect(shouldCompact(200000 - 16383, 200000, settings)).toBe(true);
    expect(shouldCompact(999999, 200000, { ...settings, enabled: false })).toBe(false);
    expect(shouldCompact(10, 0, settings)).toBe(false);
  });
});
