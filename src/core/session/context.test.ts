/**
 * Building the context from a path: entries that produce messages, model and thinking settings, compactions,
 * system messages replayed, context edits; and the conversion to LLM messages (bash, summaries).
 */
import { describe, expect, it } from "vitest";
import {
  BRANCH_SUMMARY_PREFIX,
  bashExecutionText,
  branchSummaryText,
  buildSessionContext,
  buildSessionContextSteps,
  COMPACTION_SUMMARY_PREFIX,
  compactionSummaryText,
  toLlmMessages,
} from "./context.ts";
import { assistant, entry, msg, toolResult, user } from "./test-builders.ts";
import type { AgentMessage, BashExecutionMessage, SessionEntry } from "./types.ts";

function bash(fields: Partial<BashExecutionMessage> = {}): BashExecutionMessage {
  return {
    role: "bashExecution",
    command: "ls -la",
    output: "a\nb",
    exitCode: 0,
    cancelled: false,
    truncated: false,
    timestamp: 5,
    ...fields,
  };
}

describe("buildSessionContext", () => {
  it("without compaction: every context-producing entry, settings from the path", () => {
    const path: SessionEntry[] = [
      msg("u1", null, user("hi")),
      entry("thinking_level_change", "t1", "u1", { thinkingLevel: "high" }),
      msg("a1", "t1", assistant("hello", "gpt-x", "openai")),
      entry("model_change", "m1", "a1", { provider: "anthropic", modelId: "claude" }),
      entry("custom", "c1", "m1", { customType: "state", data: { x: 1 } }),
      entry("custom_message", "cm", "c1", { customType: "note", content: "remember", display: true }),
      entry("branch_summary", "bs0", "cm", { fromId: "x", summary: "" }),
      entry("branch_summary", "bs1", "bs0", { fromId: "x", summary: "explored" }),
      entry("active_tools_change", "at", "bs1", { activeToolNames: ["read", "bash"] }),
      entry("label", "lb", "at", { targetId: "u1", label: "start" }),
      entry("mystery", "zz", "lb", { foo: 1 }),
    ];
    const ctx = buildSessionContext(path);
    expect(ctx.entryIds).toEqual(["u1", "a1", "cm", "bs1"]);
    expect(ctx.messages.map((m) => m.role)).toEqual(["user", "assistant", "custom", "branchSummary"]);
    expect(ctx.messages[2]).toMatchObject({
      role: "custom",
      customType: "note",
      content: "remember",
      display: true,
    });
    expect(ctx.messages[3]).toMatchObject({
      summary: "explored",
      fromId: "x",
      timestamp: Date.parse(entry("x", "x", null).timestamp),
    });
    expect(ctx.thinkingLevel).toBe("high");
    expect(ctx.model).toEqual({ provider: "anthropic", modelId: "claude" });
    expect(ctx.activeTools).toEqual(["read", "bash"]);
  });

  it("model from the last assistant message when it comes after a model_change; defaults", () => {
    const ctx = buildSessionContext([
      entry("model_change", "m1", null, { provider: "anthropic", modelId: "claude" }),
      msg("a1", "m1", assistant("x", "gpt-y", "openai")),
    ]);
    expect(ctx.model).toEqual({ provider: "openai", modelId: "gpt-y" });
    const empty = buildSessionContext([]);
    expect(empty).toEqual({ messages: [], entryIds: [], projection: [], thinkingLevel: "off" });
  });

  it("with compactions: last summary first, kept range (an older compaction there adds nothing), then after", () => {
    const path: SessionEntry[] = [
      msg("u1", null, user("1")),
      msg("a1", "u1", assistant("1")),
      msg("u2", "a1", user("2")),
      entry("compaction", "k1", "u2", { summary: "S1", firstKeptEntryId: "a1", tokensBefore: 100 }),
      msg("u3", "k1", user("3")),
      msg("t3", "u3", toolResult("r")),
      entry("compaction", "k2", "t3", { summary: "S2", firstKeptEntryId: "u2", tokensBefore: 200 }),
      msg("u4", "k2", user("4")),
    ];
    const ctx = buildSessionContext(path);
    expect(ctx.entryIds).toEqual(["k2", "u2", "u3", "t3", "u4"]);
    expect(ctx.messages[0]).toMatchObject({ role: "compactionSummary", summary: "S2", tokensBefore: 200 });
    expect(ctx.messages.filter((m) => m.role === "compactionSummary")).toHaveLength(1);
    // The older compaction stays in the projection (the cut rules see it) with no messages.
    expect(ctx.projection.map((p) => [p.entry.id, p.messages.length])).toContainEqual(["k1", 0]);
  });

  it("system messages: replayed into the current prompt and tools; a compaction's checkpoint leads, kept ones are dropped", () => {
    const sys = (id: string, parent: string | null, fields: Record<string, unknown>) =>
      msg(id, parent, { role: "system", content: "", timestamp: 7, ...fields } as never);
    const tool = (name: string) => ({ name, description: name, parameters: {} });
    const path: SessionEntry[] = [
      sys("s1", null, {
        content: "Base.",
        sections: { a: "A1", b: "B1" },
        toolsAdded: [tool("read"), tool("bash")],
      }),
      msg("u1", "s1", user("1")),
      sys("s2", "u1", {
        sections: { a: null, c: "C1" },
        toolsRemoved: [{ name: "bash" }],
        toolsAdded: [tool("edit")],
      }),
      msg("u2", "s2", user("2")),
    ];
    const ctx = buildSessionContext(path);
    expect(ctx.entryIds).toEqual(["s1", "u1", "s2", "u2"]);
    expect(ctx.systemMessage).toMatchObject({ content: "Base.", sections: { b: "B1", c: "C1" } });
    expect(ctx.systemMessage?.toolsAdded?.map((t) => t.name)).toEqual(["read", "edit"]);
    // System messages never reach the model as messages: their replay is the system prompt.
    expect(toLlmMessages(ctx.messages).map((m) => m.role)).toEqual(["user", "user"]);

    const checkpoint = { role: "system", content: "Checkpoint.", timestamp: 9 };
    const compacted = buildSessionContext([
      ...path,
      entry("compaction", "k", "u2", {
        summary: "S",
        firstKeptEntryId: "s1",
        tokensBefore: 5,
        systemMessage: checkpoint,
      }),
      sys("s3", "k", { sections: { d: "D" } }),
    ]);
    expect(compacted.entryIds).toEqual(["k", "k", "u1", "u2", "s3"]);
    expect(compacted.messages.map((m) => m.role)).toEqual([
      "system",
      "compactionSummary",
      "user",
      "user",
      "system",
    ]);
    expect(compacted.systemMessage).toMatchObject({ content: "Checkpoint.", sections: { d: "D" } });
  });

  it("context edits: the latest edit per target applies; null omits; a string replaces an assistant's content with a text block", () => {
    const path: SessionEntry[] = [
      msg("u1", null, user("secret")),
      msg("a1", "u1", assistant("long answer")),
      msg("t1", "a1", toolResult("huge output")),
      entry("context_edit", "e1", "t1", { targetId: "u1", replacement: { content: "first" } }),
      entry("context_edit", "e2", "e1", { targetId: "a1", replacement: { content: "short" } }),
      entry("context_edit", "e3", "e2", { targetId: "t1", replacement: null }),
      entry("context_edit", "e4", "e3", { targetId: "u1", replacement: { content: "second" } }),
    ];
    const ctx = buildSessionContext(path);
    expect(ctx.entryIds).toEqual(["u1", "a1"]);
    expect(ctx.messages[0]).toMatchObject({ role: "user", content: "second" });
    expect(ctx.messages[1]).toMatchObject({
      role: "assistant",
      content: [{ type: "text", text: "short" }],
      model: "m1",
    });
    // Before the edits (a shorter path), the originals are seen again.
    expect(buildSessionContext(path.slice(0, 4)).messages[1]).toMatchObject({
      content: [{ text: "long answer" }],
    });
  });

  it("a compaction whose firstKeptEntryId is unset or not on the path keeps nothing before it", () => {
    const base: SessionEntry[] = [msg("u1", null, user("1")), msg("a1", "u1", assistant("1"))];
    for (const firstKeptEntryId of [undefined, "elsewhere"]) {
      const ctx = buildSessionContext([
        ...base,
        entry("compaction", "k", "a1", { summary: "S", firstKeptEntryId, tokensBefore: 1 }),
        msg("u2", "k", user("2")),
      ]);
      expect(ctx.entryIds).toEqual(["k", "u2"]);
    }
  });

  it("passes stored summary-role messages through", () => {
    const stored: AgentMessage = { role: "compactionSummary", summary: "old", tokensBefore: 3, timestamp: 1 };
    expect(buildSessionContext([msg("x", null, stored)]).messages).toEqual([stored]);
  });
});

describe("buildSessionContextSteps", () => {
  it("gives buildSessionContext's context, in several steps on a long path, with a compaction too", () => {
    const path: SessionEntry[] = [];
    let parent: string | null = null;
    for (let i = 0; i < 10_000; i++) {
      const e = msg(`e${i}`, parent, i % 2 === 0 ? user(`question ${i}`) : assistant(`answer ${i}`));
      path.push(e);
      parent = e.id;
    }
    const compaction = entry("compaction", "c1", parent, {
      summary: "S",
      firstKeptEntryId: "e9000",
      tokensBefore: 1,
    });
    path.push(compaction, msg("after", "c1", user("next")));
    // 10,000 entries projected: several steps; with the compaction, ~1,000: one.
    for (const [p, steps] of [
      [path.slice(0, 10_000), 3],
      [path, 1],
    ] as const) {
      const run = buildSessionContextSteps(p);
      let count = 0;
      let next = run.next();
      for (; !next.done; next = run.next()) count++;
      expect(count).toBe(steps);
      expect(next.value).toEqual(buildSessionContext(p));
    }
    const whole = buildSessionContext(path);
    expect(whole.entryIds[0]).toBe("c1");
    expect(whole.entryIds).toHaveLength(1 + 1000 + 1);
  });
});

describe("toLlmMessages", () => {
  it("keeps user / assistant / toolResult as the same objects", () => {
    const list: AgentMessage[] = [user("a"), assistant("b"), toolResult("c")];
    const out = toLlmMessages(list);
    expect(out).toHaveLength(3);
    for (const [i, m] of out.entries()) expect(m).toBe(list[i]);
  });

  it("bash: command, fenced output, exit code; skipped when excluded", () => {
    const [ok, failed, cancelled, empty, truncated] = toLlmMessages([
      bash(),
      bash({ exitCode: 2 }),
      bash({ cancelled: true, exitCode: 130 }),
      bash({ output: "", exitCode: null }),
      bash({ excludeFromContext: true }),
      bash({ truncated: true, fullOutputPath: "/tmp/out.log" }),
    ]);
    const text = (m: unknown) => ((m as { content: { text: string }[] }).content[0]?.text ?? "") as string;
    expect(ok?.role).toBe("user");
    expect(text(ok)).toBe(bashExecutionText(bash()));
    expect(text(ok)).toContain("`ls -la`");
    expect(text(ok)).toContain("```\na\nb\n```");
    expect(text(ok)).not.toMatch(/exited|cancelled|truncated/);
    expect(text(failed)).toContain("exited with code 2");
    expect(text(cancelled)).toContain("cancelled");
    expect(text(cancelled)).not.toContain("exited");
    expect(text(empty)).toContain("no output");
    expect(text(empty)).not.toContain("```");
    expect(text(truncated)).toContain("truncated");
    expect(text(truncated)).toContain("/tmp/out.log");
    expect(toLlmMessages([bash({ excludeFromContext: true })])).toEqual([]);
  });

  it("custom, compaction and branch summaries become user messages", () => {
    const out = toLlmMessages([
      {
        role: "custom",
        customType: "x",
        content: [{ type: "text", text: "hello" }],
        display: false,
        timestamp: 7,
      },
      { role: "compactionSummary", summary: "SUM", tokensBefore: 1, timestamp: 8 },
      { role: "branchSummary", summary: "BR", fromId: "f", timestamp: 9 },
    ]);
    expect(out.map((m) => m.role)).toEqual(["user", "user", "user"]);
    expect(out[0]).toEqual({ role: "user", content: [{ type: "text", text: "hello" }], timestamp: 7 });
    expect(out[1]).toEqual({
      role: "user",
      content: [{ type: "text", text: compactionSummaryText("SUM") }],
      timestamp: 8,
    });
    expect(compactionSummaryText("SUM")).toBe(`${COMPACTION_SUMMARY_PREFIX}<summary>\nSUM\n</summary>`);
    expect(out[2]).toEqual({
      role: "user",
      content: [{ type: "text", text: branchSummaryText("BR") }],
      timestamp: 9,
    });
    expect(branchSummaryText("BR")).toBe(`${BRANCH_SUMMARY_PREFIX}<summary>\nBR\n</summary>`);
  });

  it("drops unknown roles", () => {
    expect(toLlmMessages([{ role: "hookMessage", content: "x" } as unknown as AgentMessage])).toEqual([]);
  });
});
