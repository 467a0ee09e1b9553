/**
 * One writer per session, with simulated tabs and the mock server: of two sends one runs, other tabs
 * cannot write mid-run, a reply lost after a user message comes first, a cut-off reply is offered.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getChatRequests, scriptReplies } from "../../../e2e/mock/client.ts";
import { assistant, msg, user } from "../../core/session/test-builders.ts";
import type { AssistantMessage, MessageEntry, SessionEntry } from "../../core/session/types.ts";
import {
  appendAtLeaf,
  type CutpointDb,
  getReplyCheckpoint,
  readEntries,
  saveReplyCheckpoint,
  setRunLiveness,
  setRunMark,
} from "../../db/index.ts";
import { fakeLocks } from "../../test-support/fake-locks.ts";
import { freshDb } from "../../test-support/fixture-db.ts";
import { mockModelPerFile, setMockProvider } from "../../test-support/mock-model.ts";
import { createMemoryWorkspace } from "../../tools/memory-workspace.ts";
import { loadSession } from "../session/session-loader.ts";
import { createEmptySession, renameSession } from "../session/sessions-service.ts";
import { createAgentService } from "./agent-session.ts";
import { INTERRUPTED_NOTE } from "./interrupted-reply.ts";

const mock = mockModelPerFile();

let db: CutpointDb;
beforeEach(() => {
  db = freshDb("agent-writes");
});
afterEach(() => {
  setRunLiveness(db, null);
  db.close();
});

async function setup() {
  const key = `k-writes-${Math.random().toString(36).slice(2)}`;
  await setMockProvider(db, mock, key);
  const row = await createEmptySession(db);
  if (!row.ok) throw new Error(row.error.message);
  const shared = fakeLocks();
  const tab = (owner: string) =>
    createAgentService({
      db,
      workspace: { current: async () => createMemoryWorkspace({}), touch: () => {} },
      locks: shared.locks,
      queryLocks: shared.query,
      pollMs: 10,
      owner,
    });
  const sessionId = row.value.id;
  return { key, sessionId, tab, load: async () => (await loadSession(db, sessionId))! };
}

const children = (entries: SessionEntry[]) => {
  const count = new Map<string | null, number>();
  for (const e of entries) count.set(e.parentId, (count.get(e.parentId) ?? 0) + 1);
  return count;
};
const role = (e: SessionEntry) => (e.type === "message" ? (e as MessageEntry).message.role : e.type);
const chatRoles = (r: { body: unknown }) =>
  (r.body as { messages: { role: string }[] }).messages.map((m) => m.role).filter((x) => x !== "system");

/**
 * A session whose tab was reloaded while it streamed the reply to "second" (entry "q2"): one run
 * of tab-a, then "second", then that tab's run mark and reply checkpoint left behind, its lock
 * free. Returns the mark.
 */
async function leaveCutOffReply(s: Awaited<ReturnType<typeof setup>>): Promise<string> {
  await s
    .tab("tab-a")
    .session(s.sessionId)
    .send(await s.load(), "first");
  const leaf = (await readEntries(db, s.sessionId)).at(-1)!.id;
  await appendAtLeaf(db, s.sessionId, { expectedLeafId: leaf }, () => msg("q2", leaf, user("second")));
  const mark = await setRunMark(db, s.sessionId, "gone-tab");
  if (!mark.ok) throw new Error("no mark");
  const partial: AssistantMessage = { ...assistant("half of it"), stopReason: "stop" };
  const cp = { sessionId: s.sessionId, run: mark.value, parentId: "q2", message: partial, savedAt: 5 };
  expect(await saveReplyCheckpoint(db, cp)).toBe(true);
  setRunLiveness(db, async () => false);
  return mark.value;
}

describe("one writer per session", () => {
  it("two tabs send at the same moment: one runs, the other writes nothing and says so", async () => {
    const s = await setup();
    await scriptReplies(s.key, [{ text: ["slow ", "reply ", "here"], delayMs: 40 }], mock.origin);
    const [a, b] = [s.tab("tab-a").session(s.sessionId), s.tab("tab-b").session(s.sessionId)];
    const loadedA = await s.load();
    const loadedB = await s.load();
    const [outA, outB] = await Promise.all([a.send(loadedA, "from A"), b.send(loadedB, "from B")]);
    const outcomes = [outA, outB].map((o) => (o.ok ? "ran" : o.reason)).sort();
    expect(outcomes).toEqual(["ran", "running-elsewhere"]);
    const loser = outA.ok ? b : a;
    expect(loser.getState().problem).toMatch(/^Not sent: this session is running in another tab/);
    const entries = await readEntries(db, s.sessionId);
    expect(entries.map(role)).toEqual(["model_change", "system", "user", "assistant"]);
    expect(entries.filter((e) => e.parentId === null)).toHaveLength(1);
    expect([...children(entries).values()].every((k) => k === 1)).toBe(true);
  });

  it("a tab that does not run the session cannot rename it or change its model mid-run", async () => {
    const s = await setup();
    await scriptReplies(s.key, [{ text: ["a ", "slow ", "reply ", "indeed"], delayMs: 60 }], mock.origin);
    const a = s.tab("tab-a").session(s.sessionId);
    const b = s.tab("tab-b").session(s.sessionId);
    const running = a.send(await s.load(), "go");
    await expect
      .poll(async () => (await getReplyCheckpoint(db, s.sessionId))?.message.content.length)
      .toBe(1);
    // The streaming reply is checkpointed as it arrives.
    const cp = await getReplyCheckpoint(db, s.sessionId);
    expect(cp?.parentId).toBe((await readEntries(db, s.sessionId)).at(-1)!.id);
    const renamed = await renameSession(db, s.sessionId, "mid-run");
    // (a write from this process is from neither tab: another page)
    expect(renamed.ok || renamed.error.kind).toBe("busy");
    const changed = await b.changeSettings(await s.load(), { thinkingLevel: "high" });
    expect(changed).toMatchObject({ ok: false, message: expect.stringMatching(/running in another tab/) });
    const out = await running;
    expect(out.ok).toBe(true);
    expect(await getReplyCheckpoint(db, s.sessionId)).toBeUndefined();
    const entries = await readEntries(db, s.sessionId);
    expect(entries.map(role)).toEqual(["model_change", "system", "user", "assistant"]);
    expect((await renameSession(db, s.sessionId, "after")).ok).toBe(true);
  });

  it("a path ending with a user message: pi's rule, the next prompt joins it in one request, never two user messages in a row", async () => {
    const s = await setup();
    const a = s.tab("tab-a").session(s.sessionId);
    await a.send(await s.load(), "first");
    const leaf = (await readEntries(db, s.sessionId)).at(-1)!.id;
    // A user message whose reply was lost (say, dropped after a reload).
    await appendAtLeaf(db, s.sessionId, { expectedLeafId: leaf }, () => msg("lost1", leaf, user("lost one")));
    const before = (await getChatRequests(s.key, mock.origin)).length;
    const out = await a.send(await s.load(), "next");
    expect(out.ok && out.promptSent).toBe(true);
    const chats = (await getChatRequests(s.key, mock.origin)).slice(before);
    expect(chats.map((c) => chatRoles(c).slice(-3))).toEqual([["user", "assistant", "user"]]);
    const last = (chats[0]!.body as { messages: { content: unknown }[] }).messages.at(-1)!;
    expect(last.content).toBe("lost one\n\nnext");
    const entries = await readEntries(db, s.sessionId);
    expect(entries.slice(-4).map(role)).toEqual(["assistant", "user", "user", "assistant"]);
  });

  it("a reply left by a tab that went away is offered; kept, it is an aborted assistant message", async () => {
    const s = await setup();
    const mark = await leaveCutOffReply(s);
    const b = s.tab("tab-b").session(s.sessionId);
    const off = b.subscribe(() => {});
    await expect.poll(() => b.getState().interrupted?.run).toBe(mark);
    expect((await b.send(await s.load(), "too early")).ok).toBe(false);
    expect(await b.resolveInterrupted("keep")).toEqual({ ok: true });
    off();
    const kept = (await readEntries(db, s.sessionId)).at(-1) as MessageEntry;
    expect(kept.parentId).toBe("q2");
    expect(kept.message).toMatchObject({
      role: "assistant",
      stopReason: "aborted",
      errorMessage: INTERRUPTED_NOTE,
    });
    expect(await getReplyCheckpoint(db, s.sessionId)).toBeUndefined();
    const before = (await getChatRequests(s.key, mock.origin)).length;
    await b.send(await s.load(), "third");
    const next = (await getChatRequests(s.key, mock.origin)).slice(before);
    expect(next).toHaveLength(1);
    expect(chatRoles(next[0]!).slice(-3)).toEqual(["user", "assistant", "user"]);
  });

  it("a send before any look (the agent's code just loaded for it) still finds a cut-off reply first", async () => {
    const s = await setup();
    const mark = await leaveCutOffReply(s);
    const before = (await getChatRequests(s.key, mock.origin)).length;
    const entries = (await readEntries(db, s.sessionId)).length;
    // Nothing subscribed to this controller: it has never polled.
    const b = s.tab("tab-b").session(s.sessionId);
    const out = await b.send(await s.load(), "sent at once");
    expect(out).toMatchObject({
      ok: false,
      reason: "setup",
      message: expect.stringContaining("keep it or drop it"),
    });
    expect(b.getState().interrupted?.run).toBe(mark);
    expect(await getChatRequests(s.key, mock.origin)).toHaveLength(before);
    expect(await readEntries(db, s.sessionId)).toHaveLength(entries);
  });
});
