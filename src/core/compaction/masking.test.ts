/**
 * Masking tool outputs: pi 1.6 context_edit placeholders chained from the leaf, the tokens saved, small or
 * masked results skipped, undo; and mask-then-summarize, with a summary only when still over.
 */
import { describe, expect, it } from "vitest";
import { projectPath } from "../session/projection.ts";
import { assistant, msg, TS, user } from "../session/test-builders.ts";
import type { AssistantMessage, SessionEntry, ToolResultMessage } from "../session/types.ts";
import { isMasked, MASK_PREFIX, maskThenSummarize, planMasking, unmaskEdits } from "./masking.ts";
import { contextTokensOf, indexPath } from "./plan.ts";

/** An assistant reply without provider usage (the context is then estimated). */
function reply(text: string): AssistantMessage {
  const a = assistant(text);
  a.usage = { ...a.usage, input: 0, output: 0, totalTokens: 0 };
  return a;
}

function call(id: string, path: string): AssistantMessage {
  const a = reply("");
  a.content = [{ type: "toolCall", id, name: "read", arguments: { path } }];
  a.stopReason = "toolUse";
  return a;
}

function result(id: string, text: string): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: id,
    toolName: "read",
    content: [{ type: "text", text }],
    isError: false,
    timestamp: 3,
  };
}

/** user, then n read calls with big results, then a final answer. */
function session(n: number, chars = 8000): SessionEntry[] {
  const out: SessionEntry[] = [msg("u0", null, user("read everything"))];
  for (let i = 0; i < n; i++) {
    out.push(msg(`a${i}`, out[out.length - 1]!.id, call(`c${i}`, `/w/f${i}.ts`)));
    out.push(msg(`r${i}`, `a${i}`, result(`c${i}`, `line one of f${i}\n${"x".repeat(chars)}`)));
  }
  out.push(msg("end", out[out.length - 1]!.id, reply("done")));
  return out;
}

const ids = { newId: (n: number) => `m${n}`, timestamp: TS };

describe("planMasking", () => {
  it("masks tool results before the index with pi 1.6 context_edit entries chained from the leaf", () => {
    const path = session(3);
    const plan = planMasking(path, { ...ids, beforeIndex: 5 });
    expect(plan.targets.map((t) => t.entryId)).toEqual(["r0", "r1"]);
    expect(plan.edits[0]).toMatchObject({
      type: "context_edit",
      id: "m0",
      parentId: "end",
      timestamp: TS,
      targetId: "r0",
    });
    expect(plan.edits[1]).toMatchObject({ id: "m1", parentId: "m0", targetId: "r1" });
    const placeholder = (plan.edits[0]!.replacement as { content: string }).content;
    expect(placeholder.startsWith(MASK_PREFIX)).toBe(true);
    expect(placeholder).toContain('read(path="/w/f0.ts") returned 8,015 characters in 2 lines');
    expect(placeholder).toContain('it began: "line one of f0"');
  });

  it("computes the savings from the projection with the edits appended", () => {
    const path = session(3);
    const plan = planMasking(path, { ...ids, beforeIndex: 5 });
    const masked = [...path, ...plan.edits];
    const after = contextTokensOf(indexPath(masked));
    expect(after.source).toBe("estimated");
    expect(plan.savedTokens).toBeGreaterThan(3500);
    expect(plan.savedTokens).toBe(plan.targets.reduce((s, t) => s + t.tokens - t.placeholderTokens, 0));
    expect(plan.tokensAfter).toBe(plan.tokensBefore - plan.savedTokens);
    const r0 = projectPath(masked).find((p) => p.entry.id === "r0")!;
    expect(isMasked(r0.messages[0]!.content)).toBe(true);
  });

  it("skips small results and results already masked", () => {
    const path = session(2, 100);
    expect(planMasking(path, ids).edits).toEqual([]);
    const big = session(2);
    const first = planMasking(big, ids);
    expect(planMasking([...big, ...first.edits], ids).edits).toEqual([]);
  });

  it("never masks an output its placeholder would not shrink (minimum lowered to 0)", () => {
    const small = session(3, 40);
    const plan = planMasking(small, { ...ids, minTokens: 0 });
    for (const t of plan.targets) expect(t.placeholderTokens).toBeLessThan(t.tokens);
    expect(plan.savedTokens).toBeGreaterThanOrEqual(0);
    expect(plan.tokensAfter).toBeLessThanOrEqual(plan.tokensBefore);
    // Mixed sizes: only the big ones are masked.
    const mixed = [...session(2, 40), ...session(2).slice(1)];
    const some = planMasking(mixed, { ...ids, minTokens: 0 });
    expect(some.targets.length).toBeGreaterThan(0);
    for (const t of some.targets) expect(t.placeholderTokens).toBeLessThan(t.tokens);
  });

  it("undoes by appending edits with the original content", () => {
    const path = session(2);
    const masked = [...path, ...planMasking(path, ids).edits];
    const undo = unmaskEdits(masked, ["r0", "nope"], { newId: (n) => `u${n}`, timestamp: TS });
    expect(undo).toHaveLength(1);
    expect(undo[0]).toMatchObject({ parentId: "m1", targetId: "r0" });
    const restored = projectPath([...masked, ...undo]).find((p) => p.entry.id === "r0")!;
    expect(restored.messages[0]!.content).toEqual(
      (path[2] as { message: ToolResultMessage }).message.content,
    );
  });
});

describe("maskThenSummarize", () => {
  const settings = { keepRecentTokens: 2000, reserveTokens: 1000 };

  it("plans no summary when masking brings the context under the threshold", () => {
    const path = session(6);
    const r = maskThenSummarize(path, settings, 8000, ids);
    expect(r.summaryOnly.ok).toBe(true);
    expect(r.masking.tokensBefore).toBeGreaterThan(7000);
    expect(r.masking.tokensAfter).toBeLessThan(7000);
    expect(r.stillOver).toBe(false);
    expect(r.afterMasking).toBeNull();
    expect(r.maskedPath).toHaveLength(path.length + r.masking.edits.length);
  });

  it("plans a summary of the masked path when still over", () => {
    const r = maskThenSummarize(session(6), { keepRecentTokens: 100, reserveTokens: 100 }, 300, ids);
    expect(r.stillOver).toBe(true);
    expect(r.afterMasking?.ok).toBe(true);
    if (r.afterMasking?.ok) expect(r.afterMasking.plan.tokensBefore).toBe(r.masking.tokensAfter);
  });
});
