/**
 * Summary instructions and pins stored in the browser: global and per-session instructions reaching
 * the summarizer, pin and unpin written to the session, a pin kept by a confirmed compaction.
 */
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PI_DEFAULT_TOOL_NAMES } from "../../core/agent/pi-loadout.ts";
import { pinsOf } from "../../core/agent/pins.ts";
import { DEFAULT_SUMMARY_INSTRUCTIONS, SUMMARY_PRESETS } from "../../core/compaction/instructions.ts";
import { planCompaction } from "../../core/compaction/plan.ts";
import { type CompleteFn, type CompleteRequest, planFields } from "../../core/compaction/summarize.ts";
import { buildSessionContext } from "../../core/session/context.ts";
import { assistant, header, msg, user } from "../../core/session/test-builders.ts";
import { currentPath } from "../../core/session/tree.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { type CutpointDb, createDb } from "../../db/schema.ts";
import { prepareSession, readEntries, saveSession } from "../../db/sessions-repo.ts";
import { DEFAULT_SYSTEM_PROMPT } from "../agent/agent-settings.ts";
import { compactAutomatically, confirmCompaction } from "../compaction/compaction-runner.ts";
import { loadSummaryInstructions, saveSummaryInstructions } from "../compaction/summary-instructions.ts";
import { changePin } from "./pins-service.ts";
import { sessionPrompt } from "./system-prompt-service.ts";

const ENDPOINT = { baseUrl: "http://127.0.0.1:1/v1", apiKey: "k", provider: "custom", model: "m" };
const long = (t: string) => `${t} ${"filler words here ".repeat(120)}`;
const ENTRIES: SessionEntry[] = [
  msg("u1", null, user(long("first"))),
  msg("a1", "u1", assistant(long("one"))),
  msg("u2", "a1", user(long("second"))),
  msg("a2", "u2", assistant(long("two"))),
];

let db: CutpointDb;
const SID = "sess-1";

beforeEach(async () => {
  db = createDb("summary-instructions", { indexedDB: new IDBFactory(), IDBKeyRange });
  const saved = await saveSession(db, prepareSession(header({ id: SID }), ENTRIES, 1), "new");
  if (!saved.ok) throw new Error(saved.error.message);
});
afterEach(() => db.close());

const path = async () => currentPath(await readEntries(db, SID));

describe("summary instructions kept in this browser", () => {
  it("all sessions, then a session's own, then back to inheriting", async () => {
    const terse = SUMMARY_PRESETS.find((p) => p.id === "terse")!.text;
    expect((await loadSummaryInstructions(db, SID)).resolved.source).toBe("default");
    await saveSummaryInstructions(db, { kind: "global" }, terse);
    expect((await loadSummaryInstructions(db, SID)).resolved).toMatchObject({
      source: "global",
      preset: "terse",
    });
    await saveSummaryInstructions(db, { kind: "session", sessionId: SID }, "OWN TEXT");
    const own = await loadSummaryInstructions(db, SID);
    expect(own.resolved).toMatchObject({ text: "OWN TEXT", source: "session", preset: "custom" });
    expect((await loadSummaryInstructions(db, "other")).resolved.source).toBe("global");
    await saveSummaryInstructions(db, { kind: "session", sessionId: SID }, null);
    expect((await loadSummaryInstructions(db, SID)).resolved.source).toBe("global");
    // The session's text equal to what it inherits: nothing stored.
    await saveSummaryInstructions(db, { kind: "session", sessionId: SID }, terse);
    expect((await loadSummaryInstructions(db, SID)).session).toBeUndefined();
    // A session may ask for the default while all sessions use a preset.
    await saveSummaryInstructions(db, { kind: "session", sessionId: SID }, DEFAULT_SUMMARY_INSTRUCTIONS);
    expect((await loadSummaryInstructions(db, SID)).resolved).toMatchObject({
      source: "session",
      isDefault: true,
    });
    await saveSummaryInstructions(db, { kind: "global" }, DEFAULT_SUMMARY_INSTRUCTIONS);
    expect((await loadSummaryInstructions(db, SID)).global).toBeUndefined();
  });

  it("an automatic compaction sends the session's instructions to the summarizer", async () => {
    await saveSummaryInstructions(db, { kind: "session", sessionId: SID }, "SESSION-RULES");
    const calls: CompleteRequest[] = [];
    const complete: CompleteFn = async (r) => {
      calls.push(r);
      return { ok: true, text: "## Goal\nsummary" };
    };
    const p = await path();
    const r = await compactAutomatically(db, {
      sessionId: SID,
      path: p,
      expectedLeafId: "a2",
      settings: { reserveTokens: 16384, keepRecentTokens: 300 },
      endpoint: ENDPOINT,
      signal: new AbortController().signal,
      complete,
    });
    expect(r.ok).toBe(true);
    expect(calls[0]?.userMessage).toContain("SESSION-RULES");
  });
});

describe("pins written to the session", () => {
  it("the first pin of a session without a system message writes the pin and pi's default tools, nothing else; unpin appends a removal", async () => {
    const added = await changePin(db, SID, {
      path: await path(),
      request: { kind: "add", text: "RULE ONE" },
      expectedLeafId: "a2",
    });
    if (!added.ok) throw new Error(added.error.message);
    let system = buildSessionContext(await path()).systemMessage;
    // No prompt section: pi would drop it, and Cutpoint's agent adds its prompt on its first run.
    expect(Object.keys(system?.sections ?? {})).toEqual([added.value.section]);
    expect(system?.toolsAdded?.map((t) => t.name)).toEqual([...PI_DEFAULT_TOOL_NAMES]);
    expect(pinsOf(system).map((p) => p.text)).toEqual(["RULE ONE"]);
    const prompt = await sessionPrompt(db, SID, await path());
    expect(prompt.declared).toBe(false);
    expect(prompt.editable).toBe(DEFAULT_SYSTEM_PROMPT);
    expect(prompt.text).toBe(`${DEFAULT_SYSTEM_PROMPT}\n\n${pinsOf(system)[0]!.value}`);
    const leaf = added.value.row.leafId;
    const stale = await changePin(db, SID, {
      path: await path(),
      request: { kind: "remove", section: added.value.section },
      expectedLeafId: "a2",
    });
    expect(stale.ok).toBe(false);
    const removed = await changePin(db, SID, {
      path: await path(),
      request: { kind: "remove", section: added.value.section },
      expectedLeafId: leaf,
    });
    expect(removed.ok).toBe(true);
    const after = await path();
    system = buildSessionContext(after).systemMessage;
    expect(pinsOf(system)).toEqual([]);
    expect(
      after.filter((e) => (e as { message?: { role?: string } }).message?.role === "system"),
    ).toHaveLength(2);
  });
});

describe("a compaction confirmed from a plan", () => {
  it("carries the plan's system checkpoint, so the pin survives", async () => {
    const added = await changePin(db, SID, {
      path: await path(),
      request: { kind: "add", text: "KEEP ME" },
      expectedLeafId: "a2",
    });
    if (!added.ok) throw new Error(added.error.message);
    const leaf = added.value.row.leafId;
    const planned = planCompaction(await path(), { keepRecentTokens: 1, reserveTokens: 1 });
    if (!planned.ok) throw new Error(planned.reason);
    expect(pinsOf(planned.plan.systemMessage).map((p) => p.text)).toEqual(["KEEP ME"]);
    const r = await confirmCompaction(db, {
      sessionId: SID,
      parentId: leaf,
      expectedLeafId: leaf,
      fields: planFields(planned.plan, "s"),
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(pinsOf(r.value.entry.systemMessage).map((p) => p.text)).toEqual(["KEEP ME"]);
    expect(pinsOf(buildSessionContext(await path()).systemMessage).map((p) => p.text)).toEqual(["KEEP ME"]);
  });
});
