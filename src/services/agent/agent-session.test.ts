/**
 * The agent session controller against the mock server: a send writes model, prompt and messages, tools
 * run in the workspace; setup problems, settings changes, a failed save, hooks, a lock held elsewhere.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getChatRequests, scriptReplies } from "../../../e2e/mock/client.ts";
import { buildTreeIndex, getPath } from "../../core/session/tree.ts";
import type { MessageEntry, SessionEntry, SystemMessage } from "../../core/session/types.ts";
import { type CutpointDb, readEntries } from "../../db/index.ts";
import { freshDb } from "../../test-support/fixture-db.ts";
import { mockModelPerFile, setMockProvider } from "../../test-support/mock-model.ts";
import { createMemoryWorkspace } from "../../tools/memory-workspace.ts";
import { loadSession } from "../session/session-loader.ts";
import { createEmptySession } from "../session/sessions-service.ts";
import { createAgentService, effectiveSettings, lockName } from "./agent-session.ts";
import { normalizeProviderSettings, setSystemPrompt } from "./agent-settings.ts";

const mock = mockModelPerFile();

let db: CutpointDb;
beforeEach(() => {
  db = freshDb("agent-session");
});
afterEach(() => db.close());

const newKey = () => `k-session-${Math.random().toString(36).slice(2)}`;

async function setup(key: string, opts: { key?: boolean; model?: string } = {}) {
  await setMockProvider(db, mock, opts.key !== false ? key : null, opts.model);
  const row = await createEmptySession(db);
  if (!row.ok) throw new Error(row.error.message);
  const ws = createMemoryWorkspace({ "a.txt": "alpha\n" });
  let touched = 0;
  const held = new Set<string>();
  const service = createAgentService({
    db,
    workspace: { current: async () => ws, touch: () => void touched++ },
    locks: null,
    queryLocks: async () => ({ held: [...held].map((name) => ({ name })) }),
    pollMs: 10,
  });
  const sessionId = row.value.id;
  const load = async () => (await loadSession(db, sessionId))!;
  return { service, sessionId, ws, load, held, touched: () => touched };
}

const roles = (entries: SessionEntry[]) =>
  entries.map((e) => (e.type === "message" ? (e as MessageEntry).message.role : e.type));

describe("agent session controller", () => {
  it("sends: appends the model, the prompt and every message; tools run in the workspace", async () => {
    const key = newKey();
    await scriptReplies(
      key,
      [
        { toolCalls: [{ name: "write", arguments: { path: "b.txt", content: "beta" } }] },
        { text: ["Wrote ", "b.txt."] },
      ],
      mock.origin,
    );
    const s = await setup(key);
    await setSystemPrompt(db, s.sessionId, "Custom system prompt.");
    const c = s.service.session(s.sessionId);
    const seen: number[] = [];
    c.subscribe(() => seen.push(c.getState().log.length));
    const out = await c.send(await s.load(), "write b");
    expect(out.ok).toBe(true);
    const entries = await readEntries(db, s.sessionId);
    expect(roles(entries)).toEqual([
      "model_change",
      "system",
      "user",
      "assistant",
      "toolResult",
      "assistant",
    ]);
    expect(entries[0]).toMatchObject({ type: "model_change", provider: "custom", modelId: "mock-model" });
    // The prompt and the tools offered are declared in the session as pi 1.6 does (a system message).
    const system = (entries[1] as MessageEntry).message as SystemMessage;
    expect(system.sections).toEqual({ prompt: "Custom system prompt." });
    expect(system.toolsAdded?.map((t) => t.name)).toEqual(["read", "write", "edit", "ls", "find", "grep"]);
    // Each reply records the thinking level asked for, as pi 1.6 does ("off": none was).
    expect((entries[3] as MessageEntry).message).toMatchObject({ role: "assistant", thinkingLevel: "off" });
    expect(s.ws.files().get("b.txt")).toBe("beta");
    expect(s.touched()).toBe(1);
    const state = c.getState();
    expect(state.running).toBe(false);
    expect(state.log.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(state.live).toBeNull();
    // The log grew message by message (each shown once saved).
    expect(seen).toEqual(expect.arrayContaining([1, 2, 3, 4]));
    const chats = await getChatRequests(key, mock.origin);
    expect(chats[0]!.headers.authorization).toBe(`Bearer ${key}`);
    expect((chats[0]!.body as { messages: { content: unknown }[] }).messages[0]!.content).toBe(
      "Custom system prompt.",
    );
    // A second send continues from the leaf without another model_change, declares nothing new
    // (same loadout) and sends the session's own prompt, whatever the setting for new ones says.
    await setSystemPrompt(db, s.sessionId, "Another prompt (only for sessions that declare none).");
    await c.send(await s.load(), "again");
    expect(roles(await readEntries(db, s.sessionId)).slice(6)).toEqual(["user", "assistant"]);
    const again = (await getChatRequests(key, mock.origin)).at(-1)!;
    expect((again.body as { messages: { content: unknown }[] }).messages[0]!.content).toBe(
      "Custom system prompt.",
    );
  });

  it("says what is missing before anything is written", async () => {
    const s = await setup(newKey(), { key: false });
    const c = s.service.session(s.sessionId);
    const out = await c.send(await s.load(), "hi");
    expect(out).toMatchObject({ ok: false, reason: "setup" });
    expect(c.getState().problem).toMatch(/No API key/);
    expect(await readEntries(db, s.sessionId)).toEqual([]);
    const s2 = await setup(newKey(), { model: "" });
    const out2 = await s2.service.session(s2.sessionId).send(await s2.load(), "hi");
    expect(out2).toMatchObject({
      ok: false,
      reason: "setup",
      message: expect.stringMatching(/Choose a model/),
    });
  });

  it("model and thinking changes append entries only when they differ from the path", async () => {
    const s = await setup(newKey());
    const c = s.service.session(s.sessionId);
    expect(
      await c.changeSettings(await s.load(), { modelId: "mock-reasoner", thinkingLevel: "high" }),
    ).toEqual({
      ok: true,
    });
    await c.changeSettings(await s.load(), { modelId: "mock-reasoner", thinkingLevel: "high" });
    const entries = await readEntries(db, s.sessionId);
    expect(entries.map((e) => e.type)).toEqual(["model_change", "thinking_level_change"]);
    expect(entries[1]!.parentId).toBe(entries[0]!.id);
    const settings = normalizeProviderSettings({ providerId: "custom", model: "mock-model" });
    const path = getPath(buildTreeIndex(entries).byId, entries[1]!.id);
    expect(effectiveSettings(path, settings)).toEqual({ modelId: "mock-reasoner", thinkingLevel: "high" });
    // A model of another provider on the path does not apply: the settings' default does.
    expect(effectiveSettings(path, { ...settings, providerId: "openai" }).modelId).toBe("mock-model");
  });

  it("a failed save ends the run with the storage message and keeps the reply visible as unsaved", async () => {
    const key = newKey();
    await scriptReplies(key, [{ text: "a reply that will not fit" }], mock.origin);
    const s = await setup(key);
    const c = s.service.session(s.sessionId);
    const loaded = await s.load();
    const table = db.chunks;
    const original = table.add.bind(table);
    let calls = 0;
    // The model_change and prompt are saved; the assistant reply hits a full disk.
    table.add = ((...args: Parameters<typeof original>) => {
      if (++calls === 3) throw Object.assign(new Error("full"), { name: "QuotaExceededError" });
      return original(...args);
    }) as typeof table.add;
    const out = await c.send(loaded, "hello");
    expect(out.ok && out.result.stopReason).toBe("error");
    expect(c.getState().runner.status).toMatchObject({
      kind: "error",
      message: expect.stringMatching(/storage.*full/i),
    });
    expect(c.getState().unsaved?.content).toEqual([{ type: "text", text: "a reply that will not fit" }]);
    // The session stays consistent: what was saved is there, nothing half-written.
    expect(roles(await readEntries(db, s.sessionId))).toEqual(["model_change", "system", "user"]);
  });

  it("hooks: beforePrompt sees the path and endpoint; afterRun may ask for one retry and sees its result too", async () => {
    const key = newKey();
    await scriptReplies(key, [{ error: { preset: "context-openai" } }, { text: "fits now" }], mock.origin);
    const s = await setup(key);
    const calls: string[] = [];
    s.service.registerHooks({
      beforePrompt: async (ctx) => {
        calls.push(`before:${ctx.path.length}:${ctx.endpoint.model}:${ctx.limits.contextWindow}`);
        return undefined;
      },
      afterRun: async (ctx) => {
        calls.push(`after:${ctx.result.stopReason}`);
        if (ctx.result.stopReason === "error") return { retryWithPath: ctx.result.path };
        return undefined;
      },
    });
    const c = s.service.session(s.sessionId);
    const out = await c.send(await s.load(), "big prompt");
    expect(calls).toEqual(["before:2:mock-model:128000", "after:error", "after:stop"]);
    expect(out.ok && out.result.stopReason).toBe("stop");
    expect(roles(await readEntries(db, s.sessionId))).toEqual([
      "model_change",
      "system",
      "user",
      "assistant",
      "assistant",
    ]);
  });

  it("reports a session held by another tab (lock poll), and clears it when released", async () => {
    const s = await setup(newKey());
    const c = s.service.session(s.sessionId);
    const off = c.subscribe(() => {});
    s.held.add(lockName(s.sessionId));
    await expect.poll(() => c.getState().elsewhere).toBe(true);
    s.held.clear();
    await expect.poll(() => c.getState().elsewhere).toBe(false);
    off();
  });
});
