/**
 * One rule for a message left without a reply, checked against pi 1.6: after each failure kind
 * (401, 429, 500, a cut stream, offline, Stop, a reload kept or dropped) the next request Cutpoint
 * sends is what pi 1.6 would send for the same file (pi's context at that prompt, through pi's
 * convertToLlm and pi-ai's openai-completions conversion, which runs its transform-messages),
 * with back-to-back user messages joined, and never two user messages in a row.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { piAvailable } from "../../../e2e/lib/pi-oracle.ts";
import { joinUserTurns, piRequest, reduceChat, twoUsersInARow } from "../../../e2e/lib/pi-request-oracle.ts";
import { getChatRequests, type ReplySpec, releaseReply, scriptReplies } from "../../../e2e/mock/client.ts";
import { assistant, msg, user } from "../../core/session/test-builders.ts";
import type { AssistantMessage, MessageEntry } from "../../core/session/types.ts";
import {
  appendAtLeaf,
  type CutpointDb,
  readEntries,
  saveReplyCheckpoint,
  setRunLiveness,
  setRunMark,
} from "../../db/index.ts";
import { freshDb } from "../../test-support/fixture-db.ts";
import { mockModelPerFile, setMockProvider } from "../../test-support/mock-model.ts";
import { createMemoryWorkspace } from "../../tools/memory-workspace.ts";
import { loadSession } from "../session/session-loader.ts";
import { createEmptySession, exportSessionFile } from "../session/sessions-service.ts";
import { createAgentService, OFFLINE_NOT_SENT } from "./agent-session.ts";

const mock = mockModelPerFile();
const DIR = "/tmp/cutpoint-pi-oracle";

let db: CutpointDb;
beforeEach(() => {
  db = freshDb("unreplied");
});
afterEach(() => {
  setRunLiveness(db, null);
  db.close();
});

async function setup(label: string) {
  const key = `k-unreplied-${label}-${Math.random().toString(36).slice(2)}`;
  await setMockProvider(db, mock, key);
  const row = await createEmptySession(db);
  if (!row.ok) throw new Error(row.error.message);
  let offline = false;
  const service = createAgentService({
    db,
    workspace: { current: async () => createMemoryWorkspace({}), touch: () => {} },
    locks: null,
    queryLocks: async () => ({ held: [] }),
    pollMs: 10,
    owner: `tab-${label}`,
    offline: () => offline,
  });
  const sessionId = row.value.id;
  const agent = service.session(sessionId);
  const load = async () => (await loadSession(db, sessionId))!;
  return {
    key,
    sessionId,
    agent,
    load,
    setOffline: (v: boolean) => {
      offline = v;
    },
    send: async (text: string) => agent.send(await load(), text),
    script: (replies: ReplySpec[]) => scriptReplies(key, replies, mock.origin),
  };
}
type Setup = Awaited<ReturnType<typeof setup>>;

const fail = (n: number, spec: ReplySpec): ReplySpec[] => Array.from({ length: n }, () => spec);

/** Each failure kind: what it does to the session before the next message. */
const KINDS: Record<string, (s: Setup) => Promise<void>> = {
  "401": async (s) => {
    await s.script([{ error: { preset: "auth" } }]);
    await s.send("second");
  },
  "429": async (s) => {
    await s.script(fail(4, { error: { preset: "rate-limit", retryAfter: 0 } }));
    await s.send("second");
  },
  "500": async (s) => {
    await s.script(fail(4, { error: { preset: "server" } }));
    await s.send("second");
  },
  "cut stream": async (s) => {
    await s.script([{ text: ["Half ", "of ", "an ", "answer ", "that ", "ends"], cutAfterChunks: 4 }]);
    await s.send("second");
  },
  offline: async (s) => {
    s.setOffline(true);
    const out = await s.send("second");
    expect(out).toMatchObject({ ok: false, reason: "offline", message: OFFLINE_NOT_SENT });
    s.setOffline(false);
  },
  Stop: async (s) => {
    await s.script([{ text: ["Partial ", "words ", "then ", "more"], holdAfterChunks: 3 }]);
    const running = s.send("second");
    await expect
      .poll(() => s.agent.getState().live?.content.length ?? 0, { timeout: 10_000 })
      .toBeGreaterThan(0);
    s.agent.stop();
    await releaseReply(s.key, mock.origin);
    await running;
  },
  "reload, reply kept": (s) => reload(s, "keep"),
  "reload, reply dropped": (s) => reload(s, "drop"),
};

/** A tab reloaded while the reply to "second" streamed: its checkpoint is kept or dropped. */
async function reload(s: Setup, action: "keep" | "drop"): Promise<void> {
  const leaf = (await readEntries(db, s.sessionId)).at(-1)!.id;
  await appendAtLeaf(db, s.sessionId, { expectedLeafId: leaf }, () => msg("q2", leaf, user("second")));
  const mark = await setRunMark(db, s.sessionId, "gone-tab");
  if (!mark.ok) throw new Error("no mark");
  const partial: AssistantMessage = { ...assistant("half of it"), stopReason: "stop" };
  await saveReplyCheckpoint(db, {
    sessionId: s.sessionId,
    run: mark.value,
    parentId: "q2",
    message: partial,
    savedAt: 5,
  });
  setRunLiveness(db, async () => false);
  const off = s.agent.subscribe(() => {});
  await expect.poll(() => s.agent.getState().interrupted?.run ?? null).toBe(mark.value);
  expect(await s.agent.resolveInterrupted(action)).toEqual({ ok: true });
  off();
}

async function exported(sessionId: string, name: string): Promise<string> {
  const r = await exportSessionFile(db, sessionId);
  if (!r.ok) throw new Error(r.error.message);
  mkdirSync(DIR, { recursive: true });
  const file = `${DIR}/unreplied-${name.replace(/\W+/g, "-")}-${process.pid}.jsonl`;
  writeFileSync(file, await r.value.blob.text());
  return file;
}

describe.skipIf(!piAvailable())("the next request after each failure kind is pi 1.6's, joined", () => {
  for (const [kind, produce] of Object.entries(KINDS)) {
    it(kind, async () => {
      const s = await setup(kind.replace(/\W+/g, ""));
      await s.send("first");
      await produce(s);
      await s.script([{ text: "fine" }]);
      const before = (await getChatRequests(s.key, mock.origin)).length;
      const out = await s.send("next");
      expect(out.ok && out.promptSent).toBe(true);
      const sent = (await getChatRequests(s.key, mock.origin)).slice(before);
      expect(sent).toHaveLength(1);
      const ours = reduceChat((sent[0]!.body as { messages: unknown[] }).messages);
      expect(twoUsersInARow(ours)).toBe(false);
      const entries = await readEntries(db, s.sessionId);
      const prompt = entries.find(
        (e) =>
          e.type === "message" &&
          (e as MessageEntry).message.role === "user" &&
          (e as MessageEntry).message.content === "next",
      )!;
      const pi = piRequest(await exported(s.sessionId, kind), prompt.id)!;
      expect(ours).toEqual(joinUserTurns(pi));
    });
  }
});
