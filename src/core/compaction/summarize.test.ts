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

describe("generateCompaction", () => {
  const splitPlan = planOf(pathThroughLine(fixture, 359), 20000);

  it("sends the serialized conversation with the first-summary instructions and budgets; split turn asks both concurrently", async () => {
    expect(splitPlan.isSplitTurn).toBe(true);
    let inFlight = 0;
    let bothStarted: () => void = () => {};
    const barrier = new Promise<void>((r) => {
      bothStarted = r;
    });
    const { fn, calls } = scripted(async (r) => {
      inFlight++;
      if (inFlight === 2) bothStarted();
      // Resolves only once both requests are in flight: a sequential implementation times out.
      await Promise.race([
        barrier,
        new Promise((_, no) => setTimeout(() => no(new Error("not concurrent")), 2000)),
      ]);
      r.onDelta?.("x");
      return {
        ok: true,
        text: isPrefix(r) ? "PREFIX SUMMARY" : "HISTORY SUMMARY",
        usage: { input: 10, output: 2 },
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
    expect(prefix.userMessage).not.toContain("the AgentSession API");
    expect(history.maxTokens).toBe(13107);
    expect(prefix.maxTokens).toBe(8192);
    expect(deltas.sort()).toEqual(["history", "turnPrefix"]);
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
    expect(result.usage).toEqual({ input: 20, output: 4 });
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

  it("caps budgets at the model's max output and passes the thinking level to a reasoning model", async () => {
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

  it("an error in one part fails the whole and aborts the other part", async () => {
    let otherAborted = false;
    const { fn } = scripted(async (r) => {
      if (isPrefix(r)) return { ok: false, error: "429 rate limited", aborted: false };
      await new Promise<void>((resolve) => r.signal.addEventListener("abort", () => resolve()));
      otherAborted = true;
      return { ok: false, error: "aborted", aborted: true };
    });
    const result = await generateCompaction(splitPlan, {
      complete: fn,
      signal: new AbortController().signal,
    });
    expect(result).toEqual({ ok: false, error: "429 rate limited", aborted: false });
    expect(otherAborted).toBe(true);
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
});
