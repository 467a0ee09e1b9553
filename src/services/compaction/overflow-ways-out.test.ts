/** The overflow dead end is found from the path: an overflow answering the last message, and nothing to summarize. */
import { describe, expect, it } from "vitest";
import { assistant, msg, user } from "../../core/session/test-builders.ts";
import type { AssistantMessage } from "../../core/session/types.ts";
import { findOverflowDeadEnd } from "./overflow-ways-out.ts";

const SETTINGS = { reserveTokens: 2000, keepRecentTokens: 1000 };

const overflow = (): AssistantMessage => ({
  ...assistant(""),
  content: [],
  stopReason: "error",
  errorMessage:
    "400 This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
});

describe("findOverflowDeadEnd", () => {
  it("a first message that overflows: nothing to summarize, a dead end with its text", () => {
    const path = [msg("u1", null, user("HUGE")), msg("a1", "u1", overflow())];
    const end = findOverflowDeadEnd(path, SETTINGS);
    expect(end).toMatchObject({
      userEntryId: "u1",
      parentId: null,
      text: "HUGE",
      why: "nothing-to-summarize",
    });
    expect(end?.maskable).toBe(0);
  });

  it("an answered message, or another error, is no dead end", () => {
    expect(
      findOverflowDeadEnd([msg("u1", null, user("hi")), msg("a1", "u1", assistant("ok"))], SETTINGS),
    ).toBe(undefined);
    const other = { ...overflow(), errorMessage: "500 Internal Server Error" };
    expect(findOverflowDeadEnd([msg("u1", null, user("hi")), msg("a1", "u1", other)], SETTINGS)).toBe(
      undefined,
    );
  });

  it("an overflow that compaction can still help (older turns to summarize) is no dead end", () => {
    const long = (t: string) => `${t} ${"lorem ipsum ".repeat(800)}`;
    const path = [
      msg("u1", null, user(long("one"))),
      msg("a1", "u1", assistant(long("two"))),
      msg("u2", "a1", user(long("three"))),
      msg("a2", "u2", assistant(long("four"))),
      msg("u3", "a2", user("short")),
      msg("a3", "u3", overflow()),
    ];
    expect(findOverflowDeadEnd(path, SETTINGS)).toBe(undefined);
  });
});
