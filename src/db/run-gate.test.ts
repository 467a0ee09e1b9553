/**
 * The run gate on appends: a moved leaf refused, another tab's run blocks writes, the running loop
 * holds them, stale marks cleared; reply checkpoints live only during the run.
 */
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assistant, entry, header, msg, user } from "../core/session/test-builders.ts";
import {
  agentWorkStored,
  appendAtLeaf,
  appendEntries,
  type CutpointDb,
  clearRunMark,
  clearStaleRunMark,
  createDb,
  dropReplyCheckpoint,
  getReplyCheckpoint,
  getSession,
  prepareSession,
  RUNNING_ELSEWHERE_WRITE,
  RUNNING_HERE_WRITE,
  readEntries,
  saveReplyCheckpoint,
  saveSession,
  setLoopActive,
  setRunLiveness,
  setRunMark,
} from "./index.ts";

let db: CutpointDb;
let n = 0;
beforeEach(async () => {
  db = createDb(`gate-${++n}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  const r = await saveSession(db, prepareSession(header(), [msg("u1", null, user("hi"))]), "new");
  if (!r.ok) throw new Error(r.error.message);
});
afterEach(() => {
  setRunLiveness(db, null);
  setLoopActive(db, "sess-1", null);
  db.close();
});

const label = (id: string, parentId: string | null) =>
  entry("label", id, parentId, { targetId: "u1", label: id });

describe("appendAtLeaf and the run gate", () => {
  it("refuses entries planned on a leaf that moved, and writes nothing", async () => {
    const first = await appendAtLeaf(db, "sess-1", { expectedLeafId: "u1" }, () => label("l1", "u1"));
    expect(first.ok).toBe(true);
    const stale = await appendAtLeaf(db, "sess-1", { expectedLeafId: "u1" }, () => label("l2", "u1"));
    expect(stale.ok || stale.error.kind).toBe("conflict");
    expect((await readEntries(db, "sess-1")).map((e) => e.id)).toEqual(["u1", "l1"]);
  });

  it("while another tab runs the session, every append is refused (also the raw one), the run's own lands", async () => {
    const mark = await setRunMark(db, "sess-1", "tab-a");
    if (!mark.ok) throw new Error("no mark");
    const fromB = await appendAtLeaf(db, "sess-1", { writer: { owner: "tab-b" } }, (row) =>
      label("l1", row.leafId),
    );
    expect(fromB.ok || fromB.error).toEqual({ kind: "busy", message: RUNNING_ELSEWHERE_WRITE });
    const raw = await appendEntries(db, "sess-1", [label("l2", "u1")], Date.now(), { owner: "tab-b" });
    expect(raw.ok || raw.error.kind).toBe("busy");
    const run = await appendAtLeaf(
      db,
      "sess-1",
      { expectedLeafId: "u1", writer: { owner: "tab-a", run: mark.value } },
      () => msg("a1", "u1", assistant("reply")),
    );
    expect(run.ok).toBe(true);
    await clearRunMark(db, "sess-1", mark.value);
    const after = await appendAtLeaf(db, "sess-1", { writer: { owner: "tab-b" } }, (row) =>
      label("l3", row.leafId),
    );
    expect(after.ok).toBe(true);
    expect((await readEntries(db, "sess-1")).map((e) => e.id)).toEqual(["u1", "a1", "l3"]);
  });

  it("in the running tab, other writes wait for the loop: refused while it writes, allowed between", async () => {
    const mark = await setRunMark(db, "sess-1", "tab-a");
    if (!mark.ok) throw new Error("no mark");
    setLoopActive(db, "sess-1", mark.value);
    const during = await appendAtLeaf(db, "sess-1", { writer: { owner: "tab-a" } }, (row) =>
      label("l1", row.leafId),
    );
    expect(during.ok || during.error.message).toBe(RUNNING_HERE_WRITE);
    setLoopActive(db, "sess-1", null);
    const between = await appendAtLeaf(db, "sess-1", { writer: { owner: "tab-a" } }, (row) =>
      label("l2", row.leafId),
    );
    expect(between.ok).toBe(true);
  });

  it("a mark left by a tab that went away is cleared when its lock is free, kept while held", async () => {
    const mark = await setRunMark(db, "sess-1", "gone");
    if (!mark.ok) throw new Error("no mark");
    setRunLiveness(db, async () => true);
    await clearStaleRunMark(db, "sess-1", "tab-b");
    expect((await getSession(db, "sess-1"))?.runOwner).toBe(mark.value);
    setRunLiveness(db, async () => false);
    const r = await appendAtLeaf(db, "sess-1", { writer: { owner: "tab-b" } }, (row) =>
      label("l1", row.leafId),
    );
    expect(r.ok).toBe(true);
    expect((await getSession(db, "sess-1"))?.runOwner).toBeUndefined();
  });
});

describe("reply checkpoints", () => {
  it("are kept only while the run marks the session at the reply's parent; the reply's append removes them", async () => {
    const mark = await setRunMark(db, "sess-1", "tab-a");
    if (!mark.ok) throw new Error("no mark");
    const partial = { ...assistant("hal"), stopReason: "stop" as const };
    const cp = { sessionId: "sess-1", run: mark.value, parentId: "u1", message: partial, savedAt: 1 };
    expect(await saveReplyCheckpoint(db, { ...cp, run: "other#x" })).toBe(false);
    expect(await saveReplyCheckpoint(db, { ...cp, parentId: "elsewhere" })).toBe(false);
    expect(await agentWorkStored(db, "sess-1")).toBe(true);
    expect(await saveReplyCheckpoint(db, cp)).toBe(true);
    expect((await getReplyCheckpoint(db, "sess-1"))?.message.content).toEqual([
      { type: "text", text: "hal" },
    ]);
    const r = await appendAtLeaf(
      db,
      "sess-1",
      { expectedLeafId: "u1", writer: { owner: "tab-a", run: mark.value }, dropCheckpoint: true },
      () => msg("a1", "u1", assistant("half a reply")),
    );
    expect(r.ok).toBe(true);
    expect(await getReplyCheckpoint(db, "sess-1")).toBeUndefined();
    // A checkpoint write that arrives late (after the reply was saved) is dropped.
    expect(await saveReplyCheckpoint(db, cp)).toBe(false);
    expect(await getReplyCheckpoint(db, "sess-1")).toBeUndefined();
  });

  it("agent work in storage: a run mark or a checkpoint, until both are gone", async () => {
    expect(await agentWorkStored(db, "sess-1")).toBe(false);
    expect(await agentWorkStored(db, "no-such-session")).toBe(false);
    const mark = await setRunMark(db, "sess-1", "tab-a");
    if (!mark.ok) throw new Error("no mark");
    expect(await agentWorkStored(db, "sess-1")).toBe(true);
    const cp = {
      sessionId: "sess-1",
      run: mark.value,
      parentId: "u1",
      message: assistant("hal"),
      savedAt: 1,
    };
    expect(await saveReplyCheckpoint(db, cp)).toBe(true);
    await clearRunMark(db, "sess-1", mark.value);
    // The reply cut off (its run gone, e.g. the page reloaded) is still work to show.
    expect(await agentWorkStored(db, "sess-1")).toBe(true);
    await dropReplyCheckpoint(db, "sess-1");
    expect(await agentWorkStored(db, "sess-1")).toBe(false);
  });
});
