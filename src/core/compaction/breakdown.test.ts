/**
 * The context breakdown (prompt, tools, summary, kept, since, usage difference) and the tokens after
 * a cut, equal to what the planner measures before and after Confirm.
 */
import { describe, expect, it } from "vitest";
import { buildSessionContext } from "../session/context.ts";
import { assistant, msg, user } from "../session/test-builders.ts";
import type { SessionEntry, SystemMessage } from "../session/types.ts";
import { accountContext, accountContextSteps, breakdownOf, systemParts, tokensAfter } from "./breakdown.ts";
import { contextTokensOf, indexPath, planCompaction } from "./plan.ts";
import { buildCompactionEntry, planFields } from "./summarize.ts";
import { summarySize } from "./summary-size.ts";
import { loadFixture, pathThroughLine } from "./test-fixture.ts";
import { estimateContextTokens, PI_ESTIMATOR } from "./tokens.ts";

const TS = "2026-01-01T00:00:00.000Z";
const system: SystemMessage = {
  role: "system",
  content: "p".repeat(400),
  toolsAdded: [{ name: "read", description: "d".repeat(200), parameters: {} } as never],
  timestamp: 0,
};

function sessionWithPrompt(): SessionEntry[] {
  const out: SessionEntry[] = [msg("s", null, system)];
  let parent = "s";
  for (let i = 0; i < 6; i++) {
    out.push(msg(`u${i}`, parent, user("u".repeat(4000))));
    out.push(msg(`a${i}`, `u${i}`, { ...assistant("a".repeat(4000)), usage: undefined } as never));
    parent = `a${i}`;
  }
  return out;
}

function compactAt(path: SessionEntry[], summary: string, keep = 2000): SessionEntry[] {
  const r = planCompaction(path, { keepRecentTokens: keep, reserveTokens: 16384 });
  if (!r.ok) throw new Error(r.reason);
  const entry = buildCompactionEntry({
    ...planFields(r.plan, summary),
    id: `c${path.length}`,
    parentId: path.at(-1)!.id,
    timestamp: TS,
  });
  return [...path, entry];
}

describe("systemParts", () => {
  it("splits a system message into its prompt and its tools, adding up to its estimate", () => {
    const parts = systemParts(system);
    expect(parts.systemPrompt).toBe(100);
    expect(parts.tools).toBeGreaterThan(50);
    expect(parts.systemPrompt + parts.tools).toBe(PI_ESTIMATOR.estimateMessage(system));
    expect(systemParts(undefined)).toEqual({ systemPrompt: 0, tools: 0 });
  });
});

describe("accountContext", () => {
  it("without a compaction: prompt, tools and every message since the start; all rows in context", () => {
    const path = sessionWithPrompt();
    const a = accountContext(path);
    expect(a.lastCompaction).toBe(-1);
    expect(a.windowStart).toBe(0);
    expect(a.parts.summary).toBe(0);
    expect(a.parts.kept).toBe(0);
    expect(a.parts.since).toBe(12 * 1000);
    expect(a.estimate).toBe(contextTokensOf(indexPath(path)).tokens);
    expect([...a.inContext].every((x) => x === 1)).toBe(true);
  });

  it("right after a compaction (the last entry): summary at its real size, kept rows only, same total as the planner", () => {
    const before = sessionWithPrompt();
    const summary = "s".repeat(1931 * 4);
    const path = compactAt(before, summary);
    const a = accountContext(path);
    const ctx = buildSessionContext(path);
    expect(a.lastCompaction).toBe(path.length - 1);
    expect(a.parts.summary).toBe(
      PI_ESTIMATOR.estimateMessage(ctx.messages.find((m) => m.role === "compactionSummary")!),
    );
    expect(a.parts.summary).toBeGreaterThanOrEqual(1931);
    expect(a.parts.since).toBe(0);
    expect(a.parts.kept).toBeGreaterThan(0);
    // Rows before the kept range are outside; the count of in-context rows is the context's.
    expect(a.inContext[1]).toBe(0);
    expect(a.inContextIds).toEqual(new Set(ctx.entryIds));
    expect(a.estimate).toBe(contextTokensOf(indexPath(path)).tokens);
    // The prompt is replayed from the compaction's checkpoint.
    expect(a.parts.systemPrompt).toBe(100);
  });

  it("on the real fixture (two compactions), matches the estimate of the context's messages", () => {
    const fixture = loadFixture();
    const path = pathThroughLine(fixture, 1003);
    const a = accountContext(path);
    const ctx = buildSessionContext(path);
    const est = estimateContextTokens(ctx.messages, { ignoreUsageBefore: ctx.messages.length });
    expect(a.estimate).toBe(est.tokens);
    expect(a.inContextIds).toEqual(new Set(ctx.entryIds));
  });
});

describe("accountContextSteps", () => {
  it("gives accountContext's account in steps, on the real fixture's paths and a long one", () => {
    const fixture = loadFixture();
    const long: SessionEntry[] = [msg("s", null, system)];
    for (let i = 1; i < 9000; i++)
      long.push(msg(`m${i}`, long[i - 1]!.id, i % 2 ? user(`q${i}`) : assistant(`a${i}`)));
    for (const [path, steps] of [
      [pathThroughLine(fixture, 1003), 0],
      [pathThroughLine(fixture, 400), 0],
      [long, 2],
    ] as const) {
      const run = accountContextSteps(path, PI_ESTIMATOR, buildSessionContext(path));
      let count = 0;
      let next = run.next();
      for (; !next.done; next = run.next()) count++;
      expect(count).toBe(steps);
      expect(next.value).toEqual(accountContext(path));
    }
  });
});

describe("breakdownOf", () => {
  it("puts the difference between provider usage and the estimate in its own part", () => {
    const a = accountContext(sessionWithPrompt());
    const b = breakdownOf(a, { tokens: a.estimate + 777, source: "reported" });
    expect(b.usageDifference).toBe(777);
    expect(b.since).toBe(a.parts.since);
    expect(b.systemPrompt + b.tools + b.summary + b.kept + b.since + b.usageDifference).toBe(b.total);
    expect(breakdownOf(a, { tokens: a.estimate, source: "estimated" }).usageDifference).toBe(0);
  });
});

describe("tokensAfter", () => {
  it("is measured like before: a typical summary until one exists, then its size; equals the measure after Confirm", () => {
    const path = sessionWithPrompt();
    const r = planCompaction(path, { keepRecentTokens: 2000, reserveTokens: 16384 });
    if (!r.ok) throw new Error(r.reason);
    const a = accountContext(path);
    const typical = tokensAfter(r.plan, a, undefined);
    expect(typical.summarySource).toBe("typical");
    expect(typical.summary).toBe(summarySize(r.plan).typical);
    expect(typical.summaryBound).toBe(r.plan.summaryBudgetTokens + summarySize(r.plan).fileLists);
    const text = "x".repeat(400);
    const real = tokensAfter(r.plan, a, text);
    expect(real.summarySource).toBe("summary");
    expect(real.summary).toBe(100);
    const compacted = compactAt(path, text);
    expect(real.total).toBe(contextTokensOf(indexPath(compacted)).tokens);
    // Before counts the system prompt, and so does after.
    expect(real.systemPrompt).toBe(100);
    expect(real.change).toBe(real.total - r.plan.tokensBefore);
  });

  it("says when a cut makes the context grow (a summary longer than what it replaces)", () => {
    const path = sessionWithPrompt();
    const r = planCompaction(path, { keepRecentTokens: 8000, reserveTokens: 16384 });
    if (!r.ok) throw new Error(r.reason);
    const after = tokensAfter(r.plan, accountContext(path), "y".repeat(40000));
    expect(after.change).toBeGreaterThan(0);
  });

  it("after a compaction, a new plan's kept part drops the older compaction", () => {
    const once = compactAt(sessionWithPrompt(), "first summary");
    const more = [...once];
    let parent = once.at(-1)!.id;
    for (let i = 0; i < 4; i++) {
      more.push(msg(`v${i}`, parent, user("v".repeat(4000))));
      parent = `v${i}`;
    }
    const r = planCompaction(more, { keepRecentTokens: 1000, reserveTokens: 16384 });
    if (!r.ok) throw new Error(r.reason);
    const after = tokensAfter(r.plan, accountContext(more), "second");
    const compacted = compactAt(more, "second", 1000);
    expect(after.total).toBe(contextTokensOf(indexPath(compacted)).tokens);
  });
});
