/**
 * The agent loop with a scripted model: prompt, tool calls, results and reply appended one by one,
 * over compactions; aborts, error and cut replies, the turn guard, failed saves; settings changes.
 */
import { describe, expect, it } from "vitest";
import { buildSessionContext } from "../session/context.ts";
import type {
  AssistantContentBlock,
  AssistantMessage,
  MessageEntry,
  SessionEntry,
  StopReason,
  ToolCall,
  ToolResultMessage,
} from "../session/types.ts";
import { type AgentEvent, type AgentLoopDeps, runAgent } from "./loop.ts";
import { settingsChanges } from "./settings.ts";
import type { ModelRequest, ToolOutput } from "./types.ts";

function reply(
  content: AssistantContentBlock[],
  stopReason: StopReason,
  errorMessage?: string,
): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: "openai-completions",
    provider: "mock",
    model: "mock-model",
    usage: {
      input: 1,
      output: 1,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 2,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason,
    ...(errorMessage ? { errorMessage } : {}),
    timestamp: 100,
  };
}
const call = (id: string, name: string, args: Record<string, unknown> = {}): ToolCall => ({
  type: "toolCall",
  id,
  name,
  arguments: args,
});
const text = (t: string) => ({ type: "text" as const, text: t });

/** A scripted model: each call returns the next reply (or computes it from the request). */
function harness(
  script: ((req: ModelRequest) => AssistantMessage | Promise<AssistantMessage>)[],
  opts: Partial<AgentLoopDeps> = {},
) {
  const requests: ModelRequest[] = [];
  const appended: SessionEntry[][] = [];
  const events: AgentEvent[] = [];
  const executed: ToolCall[] = [];
  let id = 0;
  let clock = 1_700_000_000_000;
  const deps: AgentLoopDeps = {
    streamModel: async (req) => {
      requests.push(req);
      const next = script.shift();
      if (!next) throw new Error("model called more often than scripted");
      return next(req);
    },
    executeTool: async (c): Promise<ToolOutput> => {
      executed.push(c);
      return { content: [{ type: "text", text: `ran ${c.name}` }], isError: false, details: { n: 1 } };
    },
    append: (entries) => void appended.push(entries),
    newId: () => `e${++id}`,
    now: () => ++clock,
    onEvent: (e) => events.push(e),
    ...opts,
  };
  return { deps, requests, appended, events, executed };
}

const roles = (entries: SessionEntry[]) => entries.map((e) => (e as MessageEntry).message.role);

describe("runAgent", () => {
  it("runs prompt -> tool calls -> results -> final reply, appending each message immediately", async () => {
    const h = harness([
      () =>
        reply(
          [text("Looking."), call("c1", "ls", { path: "." }), call("c2", "read", { path: "a" })],
          "toolUse",
        ),
      (req) => {
        // the second request sees the tool results, built from the session context
        expect(req.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult"]);
        return reply([text("Done.")], "stop");
      },
    ]);
    const r = await runAgent(
      {
        path: [],
        prompt: "list files",
        systemPrompt: "S",
        tools: [{ name: "ls", description: "", parameters: {} }],
        signal: new AbortController().signal,
      },
      h.deps,
    );
    expect(r.stopReason).toBe("stop");
    expect(r.turns).toBe(2);
    expect(h.appended.map((batch) => batch.length)).toEqual([1, 1, 1, 1, 1]);
    expect(roles(r.newEntries)).toEqual(["user", "assistant", "toolResult", "toolResult", "assistant"]);
    // chained parent ids, fresh ids, ISO timestamps
    expect(r.newEntries.map((e) => [e.id, e.parentId])).toEqual([
      ["e1", null],
      ["e2", "e1"],
      ["e3", "e2"],
      ["e4", "e3"],
      ["e5", "e4"],
    ]);
    expect(r.newEntries[0]?.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    const tr = (r.newEntries[2] as MessageEntry).message as ToolResultMessage;
    expect(tr).toMatchObject({ toolCallId: "c1", toolName: "ls", isError: false, details: { n: 1 } });
    expect(h.executed.map((c) => c.id)).toEqual(["c1", "c2"]);
    expect(h.requests[0]?.systemPrompt).toBe("S");
    expect(h.requests[0]?.tools.map((t) => t.name)).toEqual(["ls"]);
    expect(h.events.filter((e) => e.type === "tool_end")).toHaveLength(2);
  });

  it("continues an existing path (parent = leaf) and builds requests over compactions", async () => {
    const path: SessionEntry[] = [
      {
        type: "message",
        id: "a",
        parentId: null,
        timestamp: "t",
        message: { role: "user", content: "old", timestamp: 1 },
      },
      {
        type: "compaction",
        id: "b",
        parentId: "a",
        timestamp: "t",
        summary: "SUM",
        firstKeptEntryId: undefined,
        tokensBefore: 10,
      },
      { type: "thinking_level_change", id: "c", parentId: "b", timestamp: "t", thinkingLevel: "high" },
    ];
    const h = harness([() => reply([text("ok")], "stop")]);
    const r = await runAgent(
      { path, prompt: "new", systemPrompt: "", tools: [], signal: new AbortController().signal },
      h.deps,
    );
    expect(r.newEntries[0]?.parentId).toBe("c");
    const req = h.requests[0]!;
    expect(req.thinkingLevel).toBe("high");
    // The summary and the new prompt, back to back, go out as one user message (alternating roles).
    expect(req.messages.map((m) => m.role)).toEqual(["user"]);
    expect(JSON.stringify(req.messages[0])).toContain("SUM");
    expect(JSON.stringify(req.messages[0])).toMatch(/SUM.*new/);
    expect(r.path).toHaveLength(5);
    expect(path).toHaveLength(3);
  });

  it("continues without a prompt (retry after compaction)", async () => {
    const path: SessionEntry[] = [
      {
        type: "message",
        id: "a",
        parentId: null,
        timestamp: "t",
        message: { role: "user", content: "q", timestamp: 1 },
      },
    ];
    const h = harness([() => reply([text("answer")], "stop")]);
    const r = await runAgent(
      { path, systemPrompt: "", tools: [], signal: new AbortController().signal },
      h.deps,
    );
    expect(roles(r.newEntries)).toEqual(["assistant"]);
    expect(r.newEntries[0]?.parentId).toBe("a");
  });

  it("abort during streaming keeps the partial reply and, like pi 1.6, writes no results for its calls", async () => {
    const ctrl = new AbortController();
    const h = harness([
      () => {
        ctrl.abort();
        return reply([text("partial"), call("c1", "write", { path: "x" })], "aborted");
      },
    ]);
    const r = await runAgent(
      { path: [], prompt: "go", systemPrompt: "", tools: [], signal: ctrl.signal },
      h.deps,
    );
    expect(r.stopReason).toBe("aborted");
    expect(roles(r.newEntries)).toEqual(["user", "assistant"]);
    const a = (r.newEntries[1] as MessageEntry).message as AssistantMessage;
    expect(a.stopReason).toBe("aborted");
    expect(a.content[0]).toEqual(text("partial"));
    expect(h.executed).toEqual([]);
  });

  it("abort during a tool run: later calls get aborted results and no new model call is made", async () => {
    const ctrl = new AbortController();
    const h = harness([() => reply([call("c1", "ls"), call("c2", "ls"), call("c3", "ls")], "toolUse")], {
      executeTool: async (c) => {
        if (c.id === "c1") ctrl.abort();
        return { content: [{ type: "text", text: "x" }], isError: false };
      },
    });
    const r = await runAgent(
      { path: [], prompt: "go", systemPrompt: "", tools: [], signal: ctrl.signal },
      h.deps,
    );
    expect(r.stopReason).toBe("aborted");
    const results = r.newEntries.slice(2).map((e) => (e as MessageEntry).message as ToolResultMessage);
    expect(results.map((m) => [m.toolCallId, m.isError])).toEqual([
      ["c1", false],
      ["c2", true],
      ["c3", true],
    ]);
    expect(h.requests).toHaveLength(1);
  });

  it("stops on an error reply, returning its message (for overflow recovery)", async () => {
    const h = harness([() => reply([], "error", "400 prompt is too long: 300000 tokens > 200000 maximum")]);
    const r = await runAgent(
      { path: [], prompt: "go", systemPrompt: "", tools: [], signal: new AbortController().signal },
      h.deps,
    );
    expect(r.stopReason).toBe("error");
    expect(r.errorMessage).toMatch(/prompt is too long/);
    expect(r.lastAssistant?.stopReason).toBe("error");
    expect(roles(r.newEntries)).toEqual(["user", "assistant"]);
  });

  it("does not run tool calls of a reply cut at the output limit", async () => {
    const h = harness([() => reply([call("c1", "write", { path: "a" })], "length")]);
    const r = await runAgent(
      { path: [], prompt: "go", systemPrompt: "", tools: [], signal: new AbortController().signal },
      h.deps,
    );
    expect(r.stopReason).toBe("length");
    expect(h.executed).toEqual([]);
    expect(((r.newEntries[2] as MessageEntry).message as ToolResultMessage).isError).toBe(true);
  });

  it("stops at the turn guard", async () => {
    const loop = () => reply([call(`c${Math.random()}`, "ls")], "toolUse");
    const h = harness([loop, loop, loop]);
    const r = await runAgent(
      {
        path: [],
        prompt: "go",
        systemPrompt: "",
        tools: [],
        signal: new AbortController().signal,
        maxTurns: 2,
      },
      h.deps,
    );
    expect(r.stopReason).toBe("max-turns");
    expect(h.requests).toHaveLength(2);
    expect(roles(r.newEntries)).toEqual(["user", "assistant", "toolResult", "assistant", "toolResult"]);
  });

  it("reports a persistence failure as a value and stops", async () => {
    let n = 0;
    const h = harness([() => reply([text("x")], "stop")], {
      append: () => {
        if (++n === 2) throw new Error("QuotaExceededError");
      },
    });
    const r = await runAgent(
      { path: [], prompt: "go", systemPrompt: "", tools: [], signal: new AbortController().signal },
      h.deps,
    );
    expect(r.stopReason).toBe("error");
    expect(r.errorMessage).toMatch(/Could not save the session: QuotaExceededError/);
    expect(r.newEntries).toHaveLength(1);
  });

  it("turns a throwing tool executor into an error result", async () => {
    const h = harness([() => reply([call("c1", "ls")], "toolUse"), () => reply([text("ok")], "stop")], {
      executeTool: async () => {
        throw new Error("boom");
      },
    });
    const r = await runAgent(
      { path: [], prompt: "go", systemPrompt: "", tools: [], signal: new AbortController().signal },
      h.deps,
    );
    const tr = (r.newEntries[2] as MessageEntry).message as ToolResultMessage;
    expect(tr.isError).toBe(true);
    expect(JSON.stringify(tr.content)).toMatch(/boom/);
  });
});

describe("settingsChanges", () => {
  it("writes model/thinking entries only when they differ from the path", () => {
    let i = 0;
    const newId = () => `s${++i}`;
    const path: SessionEntry[] = [
      {
        type: "model_change",
        id: "m",
        parentId: null,
        timestamp: "t",
        provider: "openai",
        modelId: "gpt-4o",
      },
    ];
    expect(
      settingsChanges(path, { provider: "openai", modelId: "gpt-4o", thinkingLevel: "off" }, newId, 0),
    ).toEqual([]);
    const out = settingsChanges(
      path,
      { provider: "groq", modelId: "llama", thinkingLevel: "high" },
      newId,
      0,
    );
    expect(out.map((e) => [e.type, e.id, e.parentId])).toEqual([
      ["model_change", "s1", "m"],
      ["thinking_level_change", "s2", "s1"],
    ]);
    const ctx = buildSessionContext([...path, ...out]);
    expect(ctx.model).toEqual({ provider: "groq", modelId: "llama" });
    expect(ctx.thinkingLevel).toBe("high");
  });
});
