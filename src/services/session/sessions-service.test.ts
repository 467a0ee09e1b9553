/** Deleting a session with undo: a mark that hides it, undo within the window, the purge after it. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CutpointDb, createDb, getSession, listSessions, readEntries } from "../../db/index.ts";
import {
  createEmptySession,
  deleteSession,
  loadExampleSession,
  pendingDeletes,
  purgeExpired,
  renameSession,
  UNDO_WINDOW_MS,
  undoDelete,
} from "./sessions-service.ts";

let db: CutpointDb;
let n = 0;
beforeEach(() => {
  db = createDb(`sessions-service-${++n}`, { indexedDB: new IDBFactory(), IDBKeyRange });
});
afterEach(() => db.close());

async function sessionWithEntries(): Promise<string> {
  const r = await createEmptySession(db);
  if (!r.ok) throw new Error(r.error.message);
  await renameSession(db, r.value.id, "first");
  await renameSession(db, r.value.id, "second");
  return r.value.id;
}

describe("delete with undo: a mark, not a removal", () => {
  it("hides the session, keeps its entries, and undo brings it back whole", async () => {
    const id = await sessionWithEntries();
    const before = await readEntries(db, id);
    const r = await deleteSession(db, id, 1_000);
    expect(r).toEqual({ ok: true, value: { deletedAt: 1_000 } });
    expect(await listSessions(db)).toEqual([]);
    expect(await getSession(db, id)).toBeUndefined();
    // A reload within the window still finds it (the database is all a new page has).
    expect(
      (await pendingDeletes(db, 1_000 + UNDO_WINDOW_MS - 1)).map((p) => [p.row.id, p.undoUntil]),
    ).toEqual([[id, 1_000 + UNDO_WINDOW_MS]]);
    expect(await purgeExpired(db, 1_000 + UNDO_WINDOW_MS - 1)).toBe(0);
    expect((await undoDelete(db, id)).ok).toBe(true);
    expect((await listSessions(db)).map((s) => s.id)).toEqual([id]);
    expect(await readEntries(db, id)).toEqual(before);
    expect(await pendingDeletes(db, 1_001)).toEqual([]);
  });

  it("after the window: no Undo offered, and the purge removes the session and its entries", async () => {
    const id = await sessionWithEntries();
    await deleteSession(db, id, 5_000);
    expect(await pendingDeletes(db, 5_000 + UNDO_WINDOW_MS)).toEqual([]);
    expect(await purgeExpired(db, 5_000 + UNDO_WINDOW_MS + 1)).toBe(1);
    expect(await db.sessions.get(id)).toBeUndefined();
    expect(await readEntries(db, id)).toEqual([]);
    expect((await undoDelete(db, id)).ok).toBe(false);
  });
});

describe("rename: the same name is no rename", () => {
  it("appends nothing when the name equals the stored one (spaces aside), and nothing to clear no name", async () => {
    const r = await createEmptySession(db);
    if (!r.ok) throw new Error(r.error.message);
    const id = r.value.id;
    const cleared = await renameSession(db, id, "   ");
    expect(cleared.ok && cleared.value.entryCount).toBe(0);
    const named = await renameSession(db, id, " plan ");
    expect(named.ok && [named.value.entryCount, named.value.name]).toEqual([1, "plan"]);
    const same = await renameSession(db, id, "plan  ");
    expect(same.ok && same.value.entryCount).toBe(1);
    expect((await readEntries(db, id)).map((e) => e.type)).toEqual(["session_info"]);
    const other = await renameSession(db, id, "plan B");
    expect(other.ok && [other.value.entryCount, other.value.name]).toEqual([2, "plan B"]);
    const clear = await renameSession(db, id, "");
    expect(clear.ok && [clear.value.entryCount, clear.value.name]).toEqual([3, undefined]);
  });
});

describe("the example, opened again while a copy is listed", () => {
  it("gets a name of its own ('… (2)'), written as a session_info entry after the example's last", async () => {
    const text = readFileSync(
      resolve(import.meta.dirname, "../../../public/examples/example-session.jsonl"),
      "utf8",
    );
    const first = await loadExampleSession(db, async () => text);
    const second = await loadExampleSession(db, async () => text);
    if (!first.ok || !second.ok) throw new Error("example not loaded");
    expect(first.value.name).toBe("tally: --json flag and exact cents");
    expect(second.value.name).toBe("tally: --json flag and exact cents (2)");
    const [a, b] = [await readEntries(db, first.value.id), await readEntries(db, second.value.id)];
    expect(b.slice(0, -1)).toEqual(a);
    expect(b.at(-1)).toMatchObject({ type: "session_info", parentId: a.at(-1)!.id });
    const third = await loadExampleSession(db, async () => text);
    expect(third.ok && third.value.name).toBe("tally: --json flag and exact cents (3)");
  });
});
