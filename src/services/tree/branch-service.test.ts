/**
 * The branch service: leaf moves as move entries (never on a stale leaf), branch summaries drafted and
 * written as pi writes them, labels, a fork into a new session and a single branch's export.
 */
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CompleteFn } from "../../core/compaction/summarize.ts";
import { buildSessionContext, toLlmMessages } from "../../core/session/context.ts";
import { parentSessionId } from "../../core/session/fork.ts";
import { displayPositionId, isMoveEntry, MOVE_CUSTOM_TYPE } from "../../core/session/moves.ts";
import { assistant, header, msg, user } from "../../core/session/test-builders.ts";
import {
  buildTreeIndex,
  currentPath,
  getPath,
  resolveLabels,
  resolveLeafId,
} from "../../core/session/tree.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { type CutpointDb, createDb } from "../../db/schema.ts";
import { exportSession, prepareSession, readEntries, saveSession } from "../../db/sessions-repo.ts";
import { linear } from "../../test-support/branch-sessions.ts";
import { awaitsReply } from "../agent/interrupted-reply.ts";
import { planNavigation } from "./branch-navigation.ts";
import {
  buildLeafMove,
  confirmBranchSummary,
  draftBranchSummary,
  moveLeaf,
  setLabel,
} from "./branch-service.ts";
import { exportBranchFile, forkToNewSession } from "./fork-service.ts";

let db: CutpointDb;
beforeEach(() => {
  db = createDb("branch-test", { indexedDB: new IDBFactory(), IDBKeyRange });
});
afterEach(() => db.close());

async function store(entries: SessionEntry[]) {
  const r = await saveSession(db, prepareSession(header(), entries), "new");
  if (!r.ok) throw new Error(r.error.message);
}

/** Where the stored session stands: its leaf seen through a move. */
async function position(sessionId = "sess-1") {
  const entries = await readEntries(db, sessionId);
  return displayPositionId(resolveLeafId(entries), buildTreeIndex(entries).byId);
}

describe("branch service", () => {
  it("moveLeaf appends a move entry under the target (pi opens there); the next entry branches from it", async () => {
    await store(linear);
    const r = await moveLeaf(db, "sess-1", "a1");
    const entries = await readEntries(db, "sess-1");
    const moved = entries.at(-1)!;
    expect(moved).toMatchObject({
      type: "custom",
      customType: MOVE_CUSTOM_TYPE,
      parentId: "a1",
      data: { targetId: "a1", fromId: "a3" },
    });
    expect(r.ok && r.value.leafId).toBe(moved.id);
    expect(await position()).toBe("a1");
    expect(currentPath(entries).map((e) => e.id)).toEqual(["u1", "a1", moved.id]);
    // Nothing is written when the position the caller sees is the target already.
    const again = await moveLeaf(db, "sess-1", "a1", { expectedLeafId: moved.id, position: "a1" });
    expect(again.ok).toBe(true);
    expect((await readEntries(db, "sess-1")).length).toBe(entries.length);
    // Nor when the stored leaf is the target itself.
    await moveLeaf(db, "sess-1", moved.id);
    expect((await readEntries(db, "sess-1")).length).toBe(entries.length);
  });

  it("writes nothing when the stored leaf is not the one the view was drawn on (another tab moved it)", async () => {
    await store(linear);
    const before = await readEntries(db, "sess-1");
    // Another tab moved the leaf to u2's parent; this view still thinks the leaf is a3.
    expect((await moveLeaf(db, "sess-1", "a1", { expectedLeafId: "a3" })).ok).toBe(true);
    const stale = { expectedLeafId: "a3" };
    const attempts = [
      await moveLeaf(db, "sess-1", "u3", stale),
      await setLabel(db, "sess-1", "u2", "x", stale),
      await confirmBranchSummary(db, "sess-1", { newLeafId: "u1", summary: "s" }, stale),
    ];
    for (const r of attempts) {
      expect(r.ok ? "" : r.error.kind).toBe("conflict");
      expect(r.ok ? "" : r.error.message).toMatch(/Nothing was written/);
    }
    const after = await readEntries(db, "sess-1");
    expect(after.length).toBe(before.length + 1);
    expect(await position()).toBe("a1");
    // With the leaf it now sees, the same move goes through.
    const fresh = await moveLeaf(db, "sess-1", "u3", { expectedLeafId: resolveLeafId(after) ?? null });
    expect(fresh.ok).toBe(true);
    expect(await position()).toBe("u3");
    const gone = await moveLeaf(db, "no-such-session", "u3");
    expect(gone.ok ? "" : gone.error.kind).toBe("not-found");
  });

  it("writes exactly the move entry built before the write (shown at once), and refuses one from another leaf", async () => {
    await store(linear);
    const now = new Date("2026-12-01T00:00:00.000Z");
    const entry = buildLeafMove("a3", "a1", { taken: new Set(["u1"]), now });
    expect(isMoveEntry(entry)).toBe(true);
    expect(entry).toMatchObject({
      parentId: "a1",
      data: { targetId: "a1", fromId: "a3" },
      timestamp: now.toISOString(),
    });
    const r = await moveLeaf(db, "sess-1", "a1", { entry, expectedLeafId: "a3" });
    expect(r.ok && r.value.leafId).toBe(entry.id);
    expect((await readEntries(db, "sess-1")).at(-1)).toEqual(entry);
    // An entry built on a leaf that is not the stored one is never written.
    const wrong = buildLeafMove("a3", "u3");
    const refused = await moveLeaf(db, "sess-1", "u3", { entry: wrong });
    expect(refused.ok).toBe(false);
    expect((await readEntries(db, "sess-1")).at(-1)).toEqual(entry);
  });

  it("confirms a branch summary as pi writes it and the next context carries it", async () => {
    await store(linear);
    const plan = planNavigation(buildTreeIndex(linear), "a3", "u2", { reserveTokens: 16384 })!;
    let streamed = "";
    const complete: CompleteFn = async (req) => {
      expect(req.userMessage).toContain("now add tests");
      req.onDelta?.("Tried tests ");
      req.onDelta?.("and docs.");
      return { ok: true, text: "Tried tests and docs." };
    };
    const draft = await draftBranchSummary(db, plan, {
      signal: new AbortController().signal,
      path: linear,
      complete,
      onDelta: (d) => {
        streamed += d;
      },
    });
    expect(streamed).toBe("Tried tests and docs.");
    expect(draft.ok && draft.summary).toContain("Tried tests and docs.");
    if (!draft.ok) return;
    const r = await confirmBranchSummary(db, "sess-1", {
      newLeafId: plan.newLeafId,
      summary: `${draft.summary}\n(edited)`,
      details: draft.details,
    });
    expect(r.ok).toBe(true);
    const entries = await readEntries(db, "sess-1");
    const summary = entries.at(-1)!;
    // As pi 1.6 writes it: under the new leaf, fromId = the leaf left behind.
    expect(summary).toMatchObject({
      type: "branch_summary",
      parentId: "a1",
      fromId: "a3",
      details: { readFiles: [], modifiedFiles: ["src/parse.test.ts"] },
    });
    expect((summary as { summary: string }).summary).toMatch(/\(edited\)$/);
    expect(r.ok && r.value.leafId).toBe(summary.id);
    const path = getPath(buildTreeIndex(entries).byId, resolveLeafId(entries));
    expect(path.map((e) => e.id)).toEqual(["u1", "a1", summary.id]);
    const llm = toLlmMessages(buildSessionContext(path).messages);
    expect(JSON.stringify(llm.at(-1))).toContain("(edited)");
    // the old branch is still there
    expect(entries.some((e) => e.id === "a3")).toBe(true);
  });

  it("navigating to before the first entry hangs the summary at the root, fromId = the leaf left; offline draft without a key", async () => {
    await store(linear);
    const plan = planNavigation(buildTreeIndex(linear), "a3", "u1", { reserveTokens: 16384 })!;
    expect(plan.newLeafId).toBeNull();
    const draft = await draftBranchSummary(db, plan, { signal: new AbortController().signal, path: linear });
    expect(draft.ok && draft.offline).toBe(true);
    expect(draft.ok && draft.summary).toContain("Asked: build the parser");
    expect(draft.ok && draft.summary).toContain("<modified-files>\nsrc/parse.test.ts");
    if (!draft.ok) return;
    await confirmBranchSummary(db, "sess-1", {
      newLeafId: null,
      summary: draft.summary,
      details: draft.details,
    });
    const last = (await readEntries(db, "sess-1")).at(-1);
    expect(last).toMatchObject({ type: "branch_summary", parentId: null, fromId: "a3" });
  });

  it('a branch summary written after a move names the move left (pi\'s leaf); "root" when there was no leaf', async () => {
    await store(linear);
    await moveLeaf(db, "sess-1", "a2");
    const moveId = resolveLeafId(await readEntries(db, "sess-1"));
    await confirmBranchSummary(db, "sess-1", { newLeafId: "a1", summary: "s" });
    const entries = await readEntries(db, "sess-1");
    expect(entries.at(-1)).toMatchObject({ type: "branch_summary", parentId: "a1", fromId: moveId });
    await moveLeaf(db, "sess-1", null);
    await confirmBranchSummary(db, "sess-1", { newLeafId: "u1", summary: "s" });
    const moved = (await readEntries(db, "sess-1")).at(-2)!;
    expect((await readEntries(db, "sess-1")).at(-1)).toMatchObject({ parentId: "u1", fromId: moved.id });
    // An empty session has no leaf to leave.
    const empty = await saveSession(db, prepareSession(header({ id: "empty" }), []), "new");
    expect(empty.ok && empty.value.leafId).toBeNull();
    await confirmBranchSummary(db, "empty", { newLeafId: null, summary: "s" });
    expect((await readEntries(db, "empty")).at(-1)).toMatchObject({ parentId: null, fromId: "root" });
  });

  it("labels and clears a label; labels resolve over the file", async () => {
    await store(linear);
    await setLabel(db, "sess-1", "u2", "  tests start ");
    let entries = await readEntries(db, "sess-1");
    expect(entries.at(-1)).toMatchObject({
      type: "label",
      parentId: "a3",
      targetId: "u2",
      label: "tests start",
    });
    expect(resolveLabels(entries).get("u2")).toBe("tests start");
    await setLabel(db, "sess-1", "u2", "");
    entries = await readEntries(db, "sess-1");
    expect(entries.at(-1)).not.toHaveProperty("label");
    expect(resolveLabels(entries).has("u2")).toBe(false);
  });

  it("a fork at a user message ends at its parent, the message's text handed back for the composer", async () => {
    await store(linear);
    const r = await forkToNewSession(db, { header: header(), entries: linear }, "u2");
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.editorText).toBe("now add tests");
    const forked = await readEntries(db, r.value.row.id);
    expect(forked.map((e) => e.id).slice(0, 2)).toEqual(["u1", "a1"]);
    expect(forked.slice(2).map((e) => e.type)).toEqual(["session_info"]);
    // Nothing of the person's waits for a reply: the path ends with the model's answer.
    expect(awaitsReply(getPath(buildTreeIndex(forked).byId, r.value.row.leafId))).toBe(false);
  });

  it("forks into a new session with parentSession, and exports a single branch", async () => {
    const branching = [...linear, msg("b1", "a1", user("other idea")), msg("b2", "b1", assistant("ok"))];
    await store(branching);
    const r = await forkToNewSession(db, { header: header(), entries: branching }, "a2");
    if (!r.ok) throw new Error(r.error.message);
    const { row } = r.value;
    // The file name the parent's export gets, from which its id reads back.
    expect(row.header.parentSession).toBe("2026-01-01T00-00-00-000Z_sess-1.jsonl");
    expect(parentSessionId(row.header.parentSession)).toBe("sess-1");
    expect(r.value.editorText).toBeUndefined();
    const forked = await readEntries(db, row.id);
    expect(forked.map((e) => e.id).slice(0, 4)).toEqual(["u1", "a1", "u2", "a2"]);
    // Named apart from its parent (a session_info entry after a2, the fork's position).
    expect(forked[4]).toMatchObject({
      type: "session_info",
      parentId: "a2",
      name: "Fork of build the parser",
    });
    expect([row.leafId, row.name]).toEqual([forked[4]!.id, "Fork of build the parser"]);
    // A second fork of the same parent is numbered.
    const again = await forkToNewSession(db, { header: header(), entries: branching }, "a2");
    expect(again.ok && again.value.row.name).toBe("Fork of build the parser (2)");
    const file = exportBranchFile({ header: header(), entries: branching }, "b2");
    expect(file.ok).toBe(true);
    if (!file.ok) return;
    const lines = file.value.text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as SessionEntry);
    expect(lines[0]).toMatchObject({
      type: "session",
      version: 3,
      parentSession: "2026-01-01T00-00-00-000Z_sess-1.jsonl",
    });
    expect(lines.slice(1).map((e) => e.id)).toEqual(["u1", "a1", "b1", "b2"]);
    expect(file.value.fileName).toMatch(/\.jsonl$/);
    // the whole session still exports with every branch
    const whole = await exportSession(db, "sess-1");
    expect(whole.ok && whole.value.parts.join("")).toContain('"id":"a3"');
  });
});
