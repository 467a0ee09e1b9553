/** The summary counted before it exists (typical size, bound, file lists) and the "after" built on it; a cut at a split turn's start. */
import { describe, expect, it } from "vitest";
import { assistant, msg, user } from "../session/test-builders.ts";
import type { AssistantMessage, SessionEntry } from "../session/types.ts";
import { accountContext, tokensAfter, turnStartTradeoff } from "./breakdown.ts";
import { formatFileBlocks } from "./file-ops.ts";
import { planCompaction } from "./plan.ts";
import { summarySize, TYPICAL_SUMMARY_TOKENS } from "./summary-size.ts";

const RESERVE = 16384;
const settings = (keepRecentTokens: number) => ({ keepRecentTokens, reserveTokens: RESERVE });

/** An assistant message of ~1,000 tokens that reads `file` (a tool call pi counts in the file lists). */
function reads(file: string): AssistantMessage {
  const a = assistant("r".repeat(4000));
  a.content = [...a.content, { type: "toolCall", id: `c-${file}`, name: "read", arguments: { path: file } }];
  return a;
}

/** Turn 0: a user and an assistant; turn 1: a user then six assistants (1,000 tokens each). */
function session(withFiles: boolean): SessionEntry[] {
  const out: SessionEntry[] = [msg("u0", null, user("u".repeat(4000))), msg("a0", "u0", reads("old.ts"))];
  out.push(msg("u1", "a0", user("v".repeat(4000))));
  let parent = "u1";
  for (let i = 0; i < 6; i++) {
    const id = `b${i}`;
    out.push(msg(id, parent, withFiles && i === 0 ? reads("new.ts") : assistant("w".repeat(4000))));
    parent = id;
  }
  return out;
}

describe("summarySize", () => {
  it("counts each part at the typical size, never above its budget; the bound is the whole budget", () => {
    const r = planCompaction(session(false), settings(1500));
    if (!r.ok) throw new Error(r.reason);
    expect(r.plan.isSplitTurn).toBe(true);
    const s = summarySize(r.plan);
    expect(s.parts).toBe(2);
    const files = s.fileLists;
    expect(s.typical).toBe(2 * TYPICAL_SUMMARY_TOKENS + files);
    expect(s.bound).toBe(r.plan.summaryBudgetTokens + files);
    // A small reserve: its budgets (0.8 × 1,000 and 0.5 × 1,000) are below the typical size.
    const small = planCompaction(session(false), { keepRecentTokens: 1500, reserveTokens: 1000 });
    if (!small.ok) throw new Error(small.reason);
    expect(summarySize(small.plan).typical).toBe(800 + 500 + summarySize(small.plan).fileLists);
  });

  it("adds the file lists every summary carries, counted exactly, to both figures", () => {
    const r = planCompaction(session(true), settings(1500));
    if (!r.ok) throw new Error(r.reason);
    const blocks = formatFileBlocks(r.plan.fileOps);
    expect(blocks).toContain("new.ts");
    const s = summarySize(r.plan);
    expect(s.fileLists).toBe(Math.ceil(blocks.length / 4));
    expect(s.typical - s.fileLists).toBe(2 * TYPICAL_SUMMARY_TOKENS);
  });
});

describe("tokensAfter before and after a draft", () => {
  it("is the typical size with the bound before a draft; the draft's size after, with no bound", () => {
    const path = session(false);
    const r = planCompaction(path, settings(1500));
    if (!r.ok) throw new Error(r.reason);
    const a = accountContext(path);
    const before = tokensAfter(r.plan, a, undefined);
    expect(before.summarySource).toBe("typical");
    expect(before.total).toBe(before.kept + summarySize(r.plan).typical);
    expect(before.bound).toBe(before.kept + summarySize(r.plan).bound);
    expect(before.bound).toBeGreaterThan(before.total);
    const drafted = tokensAfter(r.plan, a, "x".repeat(2000));
    expect(drafted.summary).toBe(500);
    expect(drafted.bound).toBe(drafted.total);
    expect(drafted.total).toBe(drafted.kept + 500);
  });
});

describe("turnStartTradeoff", () => {
  it("a cut at the split turn's start keeps the prefix and drops its budget: the bound changes by exactly that", () => {
    const path = session(false);
    const a = accountContext(path);
    const split = planCompaction(path, settings(1500));
    if (!split.ok) throw new Error(split.reason);
    const t = turnStartTradeoff(split.plan, a);
    if (!t) throw new Error("expected a split turn");
    expect(t.prefixBudget).toBe(Math.floor(0.5 * RESERVE));
    // The turn's start holds u1 and the assistants before the cut.
    expect(t.prefixTokens).toBe(split.plan.turnPrefixCount * 1000);
    const whole = planCompaction(path, settings(1500), { cutEntryId: "u1" });
    if (!whole.ok) throw new Error(whole.reason);
    expect(whole.plan.isSplitTurn).toBe(false);
    expect(whole.plan.keptTokens).toBeGreaterThan(split.plan.keptTokens);
    const boundAt = (p: typeof split.plan) => tokensAfter(p, a, undefined).bound;
    expect(boundAt(whole.plan) - boundAt(split.plan)).toBe(t.boundChange);
    expect(t.boundChange).toBeLessThan(0);
  });

  it("is undefined for a clean cut", () => {
    const path = session(false);
    const whole = planCompaction(path, settings(1500), { cutEntryId: "u1" });
    if (!whole.ok) throw new Error(whole.reason);
    expect(turnStartTradeoff(whole.plan, accountContext(path))).toBeUndefined();
  });
});
