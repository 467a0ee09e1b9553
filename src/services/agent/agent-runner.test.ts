/**
 * The agent runner with the real adapter against the mock server: a tool-using turn saved message by
 * message under the session lock, thinking level, another tab, retries, abort, throttling, a failed save.
 */
import { describe, expect, it } from "vitest";
import { getChatRequests, scriptReplies } from "../../../e2e/mock/client.ts";
import type { AssistantMessage, MessageEntry, SessionEntry } from "../../core/session/types.ts";
import { mockModelPerFile } from "../../test-support/mock-model.ts";
import { createWorkspaceTools } from "../../tools/index.ts";
import { createMemoryWorkspace } from "../../tools/memory-workspace.ts";
import { createAgentRunner, type LockManagerLike } from "./agent-runner.ts";
import type { RunnerStatus } from "./idle-runner.ts";

const mock = mockModelPerFile();

/** A Web Locks stand-in: names held by "another tab" are unavailable. */
function fakeLocks(heldElsewhere: Set<string>, requested: string[]): LockManagerLike {
  return {
    request: async (name, _opts, cb) => {
      requested.push(name);
      return cb(heldElsewhere.has(name) ? null : { name });
    },
  };
}

function setup(key: string, opts: { held?: Set<string>; fail?: boolean } = {}) {
  const ws = createMemoryWorkspace({ "notes.txt": "hello\n" });
  const saved: { sessionId: string; entries: SessionEntry[] }[] = [];
  const requested: string[] = [];
  const statuses: RunnerStatus["kind"][] = [];
  const runner = createAgentRunner({
    persistence: {
      appendEntries: async (sessionId, entries) => {
        if (opts.fail) return { ok: false, error: { kind: "quota", message: "Storage is full." } };
        saved.push({ sessionId, entries });
        return { ok: true, value: {} };
      },
    },
    tools: () => createWorkspaceTools(ws),
    locks: fakeLocks(opts.held ?? new Set(), requested),
  });
  runner.subscribe(() => {
    const k = runner.getState().status.kind;
    if (statuses[statuses.length - 1] !== k) statuses.push(k);
  });
  const endpoint = { baseUrl: mock.server.baseUrl, apiKey: key, provider: "openai", model: "gpt-4o" };
  return { ws, saved, requested, statuses, runner, endpoint };
}

describe("agent runner (real adapter against the mock server, memory workspace)", () => {
  it("runs a tool-using turn end to end, persisting each message and holding the session lock", async () => {
    const key = `sk-runner-${Math.random()}`;
    await scriptReplies(
      key,
      [
        {
          text: "Editing.",
          toolCalls: [{ name: "edit", arguments: { path: "notes.txt", oldText: "hello", newText: "bye" } }],
        },
        { text: ["All ", "done."] },
      ],
      mock.origin,
    );
    const s = setup(key);
    const out = await s.runner.run({
      sessionId: "S1",
      path: [],
      prompt: "change it",
      endpoint: s.endpoint,
      systemPrompt: "sys",
    });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.result.stopReason).toBe("stop");
    expect(s.ws.files().get("notes.txt")).toBe("bye\n");
    expect(s.saved.map((x) => x.entries.length)).toEqual([1, 1, 1, 1, 1]);
    expect(s.saved.every((x) => x.sessionId === "S1")).toBe(true);
    // the model of a new session is recorded first (thinking level "off" is already the default)
    expect(s.saved[0]!.entries[0]).toMatchObject({
      type: "model_change",
      provider: "openai",
      modelId: "gpt-4o",
    });
    const roles = s.saved.slice(1).map((x) => (x.entries[0] as MessageEntry).message.role);
    expect(roles).toEqual(["user", "assistant", "toolResult", "assistant"]);
    const all = s.saved.flatMap((x) => x.entries);
    expect(all.map((e) => e.parentId)).toEqual([null, ...all.slice(0, -1).map((e) => e.id)]);
    expect(s.saved.every((x) => /^[0-9a-f]{8}$/.test(x.entries[0]!.id))).toBe(true);
    expect(s.requested).toEqual(["cutpoint-session-S1"]);
    expect(s.statuses).toContain("running-tool");
    expect(s.statuses).toContain("streaming");
    expect(s.statuses[s.statuses.length - 1]).toBe("idle");
    expect(s.runner.getState().streaming).toBeNull();

    const reqs = await getChatRequests(key, mock.origin);
    expect(reqs).toHaveLength(2);
    const second = reqs[1]!.body as { messages: { role: string; tool_call_id?: string }[]; tools: unknown[] };
    expect(second.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(second.tools).toHaveLength(6);
  });

  it("writes a thinking_level_change when the level differs, and sends it as reasoning_effort to reasoning models", async () => {
    const key = `sk-runner-${Math.random()}`;
    const s = setup(key);
    const path: SessionEntry[] = [
      {
        type: "model_change",
        id: "m0",
        parentId: null,
        timestamp: "t",
        provider: "openai",
        modelId: "o4-mini",
      },
    ];
    const out = await s.runner.run({
      sessionId: "S6",
      path,
      prompt: "think",
      endpoint: { ...s.endpoint, model: "o4-mini" },
      systemPrompt: "",
      thinkingLevel: "medium",
    });
    expect(out.ok).toBe(true);
    expect(s.saved[0]!.entries).toEqual([
      expect.objectContaining({ type: "thinking_level_change", parentId: "m0", thinkingLevel: "medium" }),
    ]);
    const body = (await getChatRequests(key, mock.origin))[0]?.body as Record<string, unknown>;
    expect(body.reasoning_effort).toBe("medium");
  });

  it("reports running-elsewhere when another tab holds the lock, without writing", async () => {
    const s = setup("k", { held: new Set(["cutpoint-session-S2"]) });
    const out = await s.runner.run({
      sessionId: "S2",
      path: [],
      prompt: "x",
      endpoint: s.endpoint,
      systemPrompt: "",
    });
    expect(out).toMatchObject({ ok: false, reason: "running-elsewhere" });
    expect(s.runner.getState().status.kind).toBe("running-elsewhere");
    expect(s.saved).toEqual([]);
  });

  it("shows retrying with a countdown target, then an error status with the provider's reason", async () => {
    const key = `sk-runner-${Math.random()}`;
    await scriptReplies(key, [{ error: { preset: "server" } }, { error: { preset: "auth" } }], mock.origin);
    const s = setup(key);
    let retryAt = 0;
    s.runner.subscribe(() => {
      const st = s.runner.getState().status;
      if (st.kind === "retrying") retryAt = st.retryAt;
    });
    const before = Date.now();
    const out = await s.runner.run({
      sessionId: "S3",
      path: [],
      prompt: "x",
      endpoint: s.endpoint,
      systemPrompt: "",
    });
    expect(out.ok && out.result.stopReason).toBe("error");
    expect(s.statuses).toContain("retrying");
    expect(retryAt).toBeGreaterThanOrEqual(before + 700);
    const st = s.runner.getState().status;
    expect(st.kind === "error" && st.message).toMatch(/API key was rejected/);
    expect(JSON.stringify(s.saved)).not.toContain(key);
  });

  it("abort stops the stream, keeps the partial reply and returns to idle; a second run while busy is refused", async () => {
    const key = `sk-runner-${Math.random()}`;
    await scriptReplies(key, [{ text: ["a", "b", "c", "d", "e", "f", "g", "h"], delayMs: 80 }], mock.origin);
    const s = setup(key);
    const unsub = s.runner.subscribe(() => {
      const m = s.runner.getState().streaming;
      if (m && m.content.length > 0) s.runner.abort();
    });
    const running = s.runner.run({
      sessionId: "S4",
      path: [],
      prompt: "x",
      endpoint: s.endpoint,
      systemPrompt: "",
    });
    const busy = await s.runner.run({
      sessionId: "S4",
      path: [],
      prompt: "y",
      endpoint: s.endpoint,
      systemPrompt: "",
    });
    expect(busy).toMatchObject({ ok: false, reason: "busy" });
    const out = await running;
    unsub();
    expect(out.ok && out.result.stopReason).toBe("aborted");
    const last = s.saved[s.saved.length - 1]!.entries[0] as MessageEntry;
    expect(last.message).toMatchObject({ role: "assistant", stopReason: "aborted" });
    expect(s.runner.getState().status.kind).toBe("idle");
  });

  it("throttles live updates: thousands of deltas, a handful of notifications, the final text delivered", async () => {
    const seen: string[] = [];
    const runner = createAgentRunner({
      persistence: { appendEntries: async () => undefined },
      tools: () => [],
      locks: null,
      streamThrottleMs: 1000,
      streamFn: async (p) => {
        const message: AssistantMessage = {
          role: "assistant",
          content: [{ type: "text", text: "" }],
          api: "openai-completions",
          provider: p.provider,
          model: p.model,
          usage: {
            input: 0,
            output: 0,
            cacheRead: 0,
            cacheWrite: 0,
            totalTokens: 0,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
          },
          stopReason: "stop",
          timestamp: 0,
        };
        const block = message.content[0] as { text: string };
        for (let i = 0; i < 5000; i++) {
          block.text += "x";
          p.onEvent?.({ type: "text_delta", contentIndex: 0, delta: "x", message });
        }
        p.onEvent?.({ type: "done", message });
        return message;
      },
    });
    runner.subscribe(() => {
      const m = runner.getState().streaming;
      if (m) seen.push((m.content[0] as { text: string }).text);
    });
    const out = await runner.run({
      sessionId: "T",
      path: [],
      prompt: "x",
      endpoint: { baseUrl: "http://x/v1", apiKey: "k", provider: "custom", model: "m" },
      systemPrompt: "",
    });
    expect(out.ok).toBe(true);
    expect(seen.length).toBeLessThanOrEqual(3);
    expect(seen[0]).toBe("x");
    expect(seen[seen.length - 1]).toHaveLength(5000);
    expect(runner.getState().streaming).toBeNull();
  });

  it("a storage failure ends the run with a clear error", async () => {
    const s = setup("k2", { fail: true });
    const out = await s.runner.run({
      sessionId: "S5",
      path: [],
      prompt: "x",
      endpoint: s.endpoint,
      systemPrompt: "",
    });
    expect(out.ok && out.result.errorMessage).toBe("Could not save the session: Storage is full.");
    expect(s.runner.getState().status).toEqual({
      kind: "error",
      message: "Could not save the session: Storage is full.",
    });
  });
});
