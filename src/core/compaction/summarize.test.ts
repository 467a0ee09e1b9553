/**
 * Generating a compaction with a scripted model on the fixture: the history then turn-prefix requests,
 * budgets, updates of a previous summary, errors and aborts; and the compaction entry built.
 */
import { describe, expect, it } from "vitest";
import { buildTreeIndex, getPath, resolveLeafId } from "../session/tree.ts";
import type { SessionEntry } from "../session/types.ts";
import { type CompactionPlan, planCompaction } from "./plan.ts";
import {
  FIRST_SUMMARY_INSTRUCTIONS,
  NO_PRIOR_HISTORY,
  SPLIT_TURN_HEADING,
  SUMMARIZER_SYSTEM_PROMPT,
  TURN_PREFIX_INSTRUCTIONS,
  UPDATE_SUMMARY_INSTRUCTIONS,
} from "./prompts.ts";
import {
  buildCompactionEntry,
  type CompleteFn,
  type CompleteRequest,
  generateCompaction,
} from "./summarize.ts";
import { loadFixture, pathThroughLine } from "./test-fixture.ts";

const fixture = loadFixture();

function planOf(path: SessionEntry[], keep: number): CompactionPlan {
  const r = planCompaction(path, { keepRecentTokens: keep, reserveTokens: 16384 });
  if (!r.ok) throw new Error(r.reason);
  return r.plan;
}

/** A scripted complete fn: records requests; answers by prompt kind. */
function scripted(answer: (r: CompleteRequest) => Promise<Awaited<ReturnType<CompleteFn>>>) {
  const calls: CompleteRequest[] = [];
  const fn: CompleteFn = (r) => {
    calls.push(r);
    return answer(r);
  };
  return { fn, calls };
}

const isPrefix = (r: CompleteRequest) => r.userMessage.includes(TURN_PREFIX_INSTRUCTIONS);

const usageOf = (input: number, output: number) => ({
  input,
  output,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: input + output,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});

describe("generateCompaction", () => {
  const splitPlan = planOf(pathThroughLine(fixture, 359), 20000);

  it("sends the serialized conversation with the first-summary instructions and budgets; a split turn asks history, then prefix", async () => {
    expect(splitPlan.isSplitTurn).toBe(true);
    let inFlight = 0;
    const order: string[] = [];
    const { fn, calls } = scripted(async (r) => {
      inFlight++;
      // One request at a time: a concurrent implementation would have two in flight here.
      expect(inFlight).toBe(1);
      order.push(isPrefix(r) ? "turnPrefix" : "history");
      await new Promise((resolve) => setTimeout(resolve, 5));
      r.onDelta?.("x");
      inFlight--;
      return {
        ok: true,
        text: isPrefix(r) ? "PREFIX SUMMARY" : "HISTORY SUMMARY",
        usage: usageOf(10, 2),
      };
    });
    const deltas: string[] = [];
    const result = await generateCompaction(splitPlan, {
      complete: fn,
      signal: new AbortController().signal,
      focus: "the AgentSession API",
      onDelta: (_d, part) => deltas.push(part),
    });
    expect(calls).toHaveLength(2);
    const history = calls.find((c) => !isPrefix(c))!;
    const prefix = calls.find(isPrefix)!;
    expect(history.systemPrompt).toBe(SUMMARIZER_SYSTEM_PROMPT);
    expect(
      history.userMessage.startsWith(
        "<conversation>\n[User]: alright, read @packages/coding-agent/src/main.ts",
      ),
    ).toBe(true);
    expect(history.userMessage).toContain(FIRST_SUMMARY_INSTRUCTIONS);
    expect(history.userMessage).not.toContain("<previous-summary>");
    expect(history.userMessage).toContain("the AgentSession API");
    // pi 1.6's prefix request: a Conversation section, an Instructions section, and the focus too.
    expect(prefix.userMessage.startsWith("# Conversation\n[User]: ")).toBe(true);
    expect(prefix.userMessage).toContain(`\n\n# Instructions\n${TURN_PREFIX_INSTRUCTIONS}`);
    expect(prefix.userMessage).toContain("the AgentSession API");
    // Without a known output limit, the budgets fall back to the reserve's shares.
    expect(history.maxTokens).toBe(13107);
    expect(prefix.maxTokens).toBe(8192);
    expect(order).toEqual(["history", "turnPrefix"]);
    expect(deltas).toEqual(["history", "turnPrefix"]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(
      result.fields.summary.startsWith(`HISTORY SUMMARY\n\n---\n\n${SPLIT_TURN_HEADING}\n\nPREFIX SUMMARY`),
    ).toBe(true);
    expect(result.fields.summary).toContain("<read-files>\n");
    expect(result.fields.summary).toContain("<modified-files>\n");
    expect(result.fields.firstKeptEntryId).toBe(splitPlan.firstKeptEntryId);
    expect(result.fields.tokensBefore).toBe(175004);
    expect(result.fields.details).toEqual(splitPlan.fileOps);
    expect(result.usage).toEqual(usageOf(20, 4));
    // The usage is stored with the fields (pi 1.6 writes it on the compaction entry).
    expect(result.fields.usage).toEqual(usageOf(20, 4));
  });

  it("updates with <previous-summary> after an earlier compaction (full fixture)", async () => {
    const path = getPath(buildTreeIndex(fixture.entries).byId, resolveLeafId(fixture.entries));
    const plan = planOf(path, 20000);
    const { fn, calls } = scripted(async () => ({ ok: true, text: "S" }));
    const result = await generateCompaction(plan, { complete: fn, signal: new AbortController().signal });
    expect(result.ok).toBe(true);
    const history = calls.find((c) => !isPrefix(c))!;
    expect(history.userMessage).toContain(`<previous-summary>\n${plan.previousSummary}\n</previous-summary>`);
    expect(history.userMessage).toContain(UPDATE_SUMMARY_INSTRUCTIONS);
    expect(history.userMessage.indexOf("</conversation>")).toBeLessThan(
      history.userMessage.indexOf("<previous-summary>"),
    );
  });

  it("budgets follow the model's output limit and the thinking level goes to a reasoning model", async () => {
    const { fn, calls } = scripted(async () => ({ ok: true, text: "S" }));
    await generateCompaction(splitPlan, {
      complete: fn,
      signal: new AbortController().signal,
      model: { maxOutputTokens: 4096, reasoning: true },
      thinkingLevel: "high",
    });
    expect(calls.map((c) => c.maxTokens).sort()).toEqual([4096, 4096]);
    expect(calls.every((c) => c.thinkingLevel === "high")).toBe(true);
    const off = scripted(async () => ({ ok: true, text: "S" }));
    await generateCompaction(splitPlan, {
      complete: off.fn,
      signal: new AbortController().signal,
      model: { reasoning: true },
      thinkingLevel: "off",
    });
    expect(off.calls.every((c) => c.thinkingLevel === undefined)).toBe(true);
  });

  it("an error in the history part fails the whole before the prefix is asked; an error in the prefix fails it too", async () => {
    const first = scripted(async (r) =>
      isPrefix(r) ? { ok: true, text: "P" } : { ok: false, error: "429 rate limited", aborted: false },
    );
    const r1 = await generateCompaction(splitPlan, {
      complete: first.fn,
      signal: new AbortController().signal,
    });
    expect(r1).toEqual({ ok: false, error: "429 rate limited", aborted: false });
    expect(first.calls).toHaveLength(1);
    const second = scripted(async (r) =>
      isPrefix(r) ? { ok: false, error: "500 boom", aborted: false } : { ok: true, text: "H" },
    );
    const r2 = await generateCompaction(splitPlan, {
      complete: second.fn,
      signal: new AbortController().signal,
    });
    expect(r2).toEqual({ ok: false, error: "500 boom", aborted: false });
    expect(second.calls).toHaveLength(2);
  });

  it("an abort yields aborted and no entry fields; a throwing complete fn is an error value", async () => {
    const controller = new AbortController();
    const { fn } = scripted(
      (r) =>
        new Promise((resolve) => {
          r.signal.addEventListener("abort", () => resolve({ ok: false, error: "stopped", aborted: true }));
          setTimeout(() => controller.abort(), 5);
        }),
    );
    const result = await generateCompaction(splitPlan, { complete: fn, signal: controller.signal });
    expect(result).toMatchObject({ ok: false, aborted: true });
    expect("fields" in result).toBe(false);
    const thrower: CompleteFn = async () => {
      throw new Error("boom");
    };
    expect(
      await generateCompaction(splitPlan, { complete: thrower, signal: new AbortController().signal }),
    ).toEqual({
      ok: false,
      error: "boom",
      aborted: false,
    });
  });

  it("uses 'No prior history.' when nothing precedes the split turn, with a single request", async () => {
    const ts = "2026-01-01T00:00:00.000Z";
    const path = [
      {
        type: "message",
        id: "u",
        parentId: null,
        timestamp: ts,
        message: { role: "user", content: "do it", timestamp: 0 },
      },
      {
        type: "message",
        id: "a1",
        parentId: "u",
        timestamp: ts,
        message: {
          role: "assistant",
          content: [{ type: "toolCall", id: "c", name: "read", arguments: { path: "/p" } }],
          stopReason: "toolUse",
          timestamp: 0,
        },
      },
      {
        type: "message",
        id: "r",
        parentId: "a1",
        timestamp: ts,
        message: {
          role: "toolResult",
          toolCallId: "c",
          toolName: "read",
          content: [{ type: "text", text: "y".repeat(8000) }],
          isError: false,
          timestamp: 0,
        },
      },
      {
        type: "message",
        id: "a2",
        parentId: "r",
        timestamp: ts,
        message: {
          role: "assistant",
          content: [{ type: "text", text: "done" }],
          stopReason: "stop",
          timestamp: 0,
        },
      },
    ] as SessionEntry[];
    const plan = planOf(path, 10);
    expect(plan.isSplitTurn).toBe(true);
    expect(plan.summarizeCount).toBe(0);
    expect(plan.turnPrefixCount).toBe(3);
    const { fn, calls } = scripted(async () => ({ ok: true, text: "P" }));
    const result = await generateCompaction(plan, { complete: fn, signal: new AbortController().signal });
    expect(calls).toHaveLength(1);
    expect(isPrefix(calls[0]!)).toBe(true);
    expect(result.ok && result.fields.summary).toBe(
      `${NO_PRIOR_HISTORY}\n\n---\n\n${SPLIT_TURN_HEADING}\n\nP\n\n<read-files>\n/p\n</read-files>`,
    );
  });
});

describe("split turn right at the window start after an earlier compaction", () => {
  it("keeps the previous summary verbatim as the history part (never loses it) and asks only for the prefix", async () => {
    const ts = "2026-01-01T00:00:00.000Z";
    const m = (id: string, parentId: string | null, message: Record<string, unknown>) =>
      ({
        type: "message",
        id,
        parentId,
        timestamp: ts,
        message: { timestamp: 0, ...message },
      }) as SessionEntry;
    const call = (id: string, parentId: string) =>
      m(id, parentId, {
        role: "assistant",
        content: [{ type: "toolCall", id: `c-${id}`, name: "bash", arguments: { command: "ls" } }],
        stopReason: "toolUse",
      });
    const result = (id: string, parentId: string) =>
      m(id, parentId, {
        role: "toolResult",
        toolCallId: `c-${parentId}`,
        toolName: "bash",
        content: [{ type: "text", text: "o".repeat(4000) }],
        isError: false,
      });
    const path: SessionEntry[] = [
      m("old", null, { role: "user", content: "old request" }),
      m("u", "old", { role: "user", content: "long task" }),
      call("a1", "u"),
      result("r1", "a1"),
      {
        type: "compaction",
        id: "c",
        parentId: "r1",
        timestamp: ts,
        summary: "EARLIER SUMMARY",
        firstKeptEntryId: "u",
        tokensBefore: 9,
      } as SessionEntry,
      call("a2", "c"),
      result("r2", "a2"),
      call("a3", "r2"),
      result("r3", "a3"),
    ];
    const plan = planOf(path, 1500);
    expect(path[plan.windowStart]!.id).toBe("u");
    expect(plan.isSplitTurn).toBe(true);
    expect(plan.turnStartIndex).toBe(plan.windowStart);
    expect(plan.summarizeCount).toBe(0);
    const { fn, calls } = scripted(async () => ({ ok: true, text: "PREFIX" }));
    const r = await generateCompaction(plan, { complete: fn, signal: new AbortController().signal });
    expect(calls).toHaveLength(1);
    expect(isPrefix(calls[0]!)).toBe(true);
    expect(r.ok && r.fields.summary).toBe(`EARLIER SUMMARY\n\n---\n\n${SPLIT_TURN_HEADING}\n\nPREFIX`);
  });
});

describe("buildCompactionEntry", () => {
  it("builds a v3 compaction entry from the fields and the given id / parent / time", () => {
    const entry = buildCompactionEntry({
      summary: "S",
      firstKeptEntryId: "k",
      tokensBefore: 123,
      details: { readFiles: ["/a"], modifiedFiles: [] },
      id: "abcd1234",
      parentId: "p",
      timestamp: "2026-01-01T00:00:00.000Z",
    });
    expect(entry).toEqual({
      type: "compaction",
      id: "abcd1234",
      parentId: "p",
      timestamp: "2026-01-01T00:00:00.000Z",
      summary: "S",
      firstKeptEntryId: "k",
      tokensBefore: 123,
      details: { readFiles: ["/a"], modifiedFiles: [] },
    });
  });

  it("writes the system checkpoint with the compaction's own time, and the summary usage", () => {
    const entry = buildCompactionEntry({
      summary: "S",
      firstKeptEntryId: "k",
      tokensBefore: 1,
      details: { readFiles: [], modifiedFiles: [] },
      systemMessage: { role: "system", content: "Prompt.", toolsAdded: [{ name: "read" }], timestamp: 5 },
      usage: usageOf(7, 3),
      id: "c1",
      parentId: "p",
      timestamp: "2026-01-01T00:00:01.000Z",
    });
    expect(entry.systemMessage).toEqual({
      role: "system",
      content: "Prompt.",
      toolsAdded: [{ name: "read" }],
      timestamp: Date.parse("2026-01-01T00:00:01.000Z"),
    });
    expect(entry.usage).toEqual(usageOf(7, 3));
  });
});
