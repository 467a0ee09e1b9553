/**
 * Deciding whether to compact: the threshold per mode and trigger, what decides nothing, recovery
 * from an overflow or a cut reply (once, this model only), and the omission edits.
 */
import { describe, expect, it } from "vitest";
import { assistant, entry, msg, toolResult, user } from "../session/test-builders.ts";
import type { AssistantMessage, SessionEntry } from "../session/types.ts";
import {
  type DecideInput,
  decideCompaction,
  OVERFLOW_WITH_MODE_OFF,
  omissionEdits,
  RECOVERY_FAILED_LENGTH,
  RECOVERY_FAILED_OVERFLOW,
  triggerThreshold,
} from "./decide.ts";

const reply = (fields: Partial<AssistantMessage>, total = 1000): AssistantMessage => ({
  ...assistant("ok", "m1"),
  usage: {
    input: total,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: total,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  },
  timestamp: Date.parse("2026-01-01T00:00:10.000Z"),
  ...fields,
});

function session(last: AssistantMessage, extra: SessionEntry[] = []): SessionEntry[] {
  return [msg("u1", null, user("x".repeat(400))), msg("a1", "u1", last), ...extra];
}

const base = (path: SessionEntry[], over: Partial<DecideInput> = {}): DecideInput => ({
  moment: "after-run",
  path,
  mode: "ask",
  contextWindow: 10_000,
  reserveTokens: 2_000,
  model: "m1",
  maxOutputTokens: 4_000,
  ...over,
});

describe("decideCompaction: the threshold", () => {
  it("nothing below the threshold; ask / auto / remind above it; off never", () => {
    const small = session(reply({}, 7_000));
    expect(decideCompaction(base(small, { lastReply: small[1]!.message as never }))).toEqual({
      action: "none",
    });
    const big = session(reply({}, 9_000));
    const last = (big[1] as { message: AssistantMessage }).message;
    expect(decideCompaction(base(big, { lastReply: last }))).toEqual({
      action: "ask",
      tokens: 9_000,
      threshold: 8_000,
    });
    expect(decideCompaction(base(big, { lastReply: last, mode: "auto" }))).toMatchObject({
      action: "auto",
      why: "threshold",
    });
    expect(decideCompaction(base(big, { lastReply: last, remindOnly: true }))).toMatchObject({
      action: "remind",
    });
    expect(decideCompaction(base(big, { lastReply: last, mode: "off" }))).toEqual({ action: "none" });
    // Between turns and before a prompt, the same rule on the path.
    expect(decideCompaction(base(big, { moment: "between-turns" }))).toMatchObject({ action: "ask" });
  });

  it("a share of the window moves the trigger", () => {
    expect(triggerThreshold(10_000, 2_000)).toBe(8_000);
    expect(triggerThreshold(10_000, 2_000, { kind: "percent", percent: 75 })).toBe(7_500);
    const p = session(reply({}, 7_600));
    expect(decideCompaction(base(p, { trigger: { kind: "percent", percent: 75 } }))).toMatchObject({
      action: "ask",
      threshold: 7_500,
    });
  });

  it("an aborted reply, a reply from before the latest compaction, or a path ending with a compaction decide nothing", () => {
    const aborted = session(reply({ stopReason: "aborted" }, 9_500));
    expect(
      decideCompaction(base(aborted, { lastReply: (aborted[1] as { message: AssistantMessage }).message })),
    ).toEqual({ action: "none" });
    const old = reply({ stopReason: "error", errorMessage: "prompt is too long" }, 9_500);
    const compacted = session(old, [
      entry("compaction", "k", "a1", {
        summary: "S",
        firstKeptEntryId: "a1",
        tokensBefore: 1,
        timestamp: "2026-01-01T00:01:00.000Z",
      }),
    ]);
    expect(decideCompaction(base(compacted, { lastReply: old }))).toEqual({ action: "none" });
    expect(decideCompaction(base(compacted, { moment: "before-prompt" }))).toEqual({ action: "none" });
  });
});

describe("decideCompaction: recovery", () => {
  const overflow = reply({
    stopReason: "error",
    errorMessage: "This model's maximum context length is 8192 tokens",
    content: [{ type: "toolCall", id: "c1", name: "read", arguments: { path: "/a" } }],
  });
  const path = session(overflow, [msg("t1", "a1", { ...toolResult("unrun"), toolCallId: "c1" })]);

  it("an overflow from the current model: hide the attempt and its tool results, compact, retry once", () => {
    expect(decideCompaction(base(path, { lastReply: overflow }))).toEqual({
      action: "recover",
      why: "overflow",
      omit: ["a1", "t1"],
    });
    expect(decideCompaction(base(path, { lastReply: overflow, recoveryAttempted: true }))).toEqual({
      action: "report",
      message: RECOVERY_FAILED_OVERFLOW,
    });
    expect(decideCompaction(base(path, { lastReply: overflow, mode: "off" }))).toEqual({
      action: "report",
      message: OVERFLOW_WITH_MODE_OFF,
    });
    // Another model's overflow says nothing about this one.
    expect(decideCompaction(base(path, { lastReply: overflow, model: "m2" }))).toEqual({ action: "none" });
  });

  it("an attempt already hidden by an omission edit is not recovered again", () => {
    const hidden = [...path, entry("context_edit", "e1", "t1", { targetId: "a1", replacement: null })];
    expect(decideCompaction(base(hidden, { lastReply: overflow }))).toEqual({ action: "none" });
  });

  it("a reply cut at the output limit below the model's limit is recovered; at the limit it is not", () => {
    const cut = reply({ stopReason: "length", usage: { ...reply({}).usage, output: 1_200 } }, 3_000);
    const p = session(cut);
    expect(decideCompaction(base(p, { lastReply: cut }))).toEqual({
      action: "recover",
      why: "length",
      omit: ["a1"],
    });
    expect(decideCompaction(base(p, { lastReply: cut, recoveryAttempted: true }))).toEqual({
      action: "report",
      message: RECOVERY_FAILED_LENGTH,
    });
    expect(decideCompaction(base(p, { lastReply: cut, maxOutputTokens: 1_200 }))).toEqual({ action: "none" });
  });

  it("a silent overflow (complete, input over the window) compacts without a retry; a truncated input recovers", () => {
    const silent = reply({ stopReason: "stop", usage: { ...reply({}).usage, input: 12_000 } }, 12_000);
    expect(decideCompaction(base(session(silent), { lastReply: silent }))).toMatchObject({
      action: "auto",
      why: "silent-overflow",
    });
    const truncated = reply(
      { stopReason: "length", usage: { ...reply({}).usage, input: 9_950, output: 0 } },
      9_950,
    );
    expect(
      decideCompaction(base(session(truncated), { lastReply: truncated, maxOutputTokens: 0 })),
    ).toMatchObject({ action: "recover", why: "overflow" });
  });

  it("omission edits chain from the leaf, one per target", () => {
    let n = 0;
    const edits = omissionEdits(["a1", "t1"], "t1", () => `e${++n}`, "2026-01-01T00:00:00.000Z");
    expect(edits).toEqual([
      {
        type: "context_edit",
        id: "e1",
        parentId: "t1",
        timestamp: "2026-01-01T00:00:00.000Z",
        targetId: "a1",
        replacement: null,
      },
      {
        type: "context_edit",
        id: "e2",
        parentId: "e1",
        timestamp: "2026-01-01T00:00:00.000Z",
        targetId: "t1",
        replacement: null,
      },
    ]);
  });
});
