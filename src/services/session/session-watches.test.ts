/** The live reads of stored sessions: a value at once, and again after each write that changes it. */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CutpointDb } from "../../db/index.ts";
import { freshDb } from "../../test-support/fixture-db.ts";
import type { Live } from "../common/live.ts";
import {
  watchForkParent,
  watchSessionCount,
  watchSessionList,
  watchStoredRowCount,
} from "./session-watches.ts";
import { createEmptySession, deleteSession, renameSession } from "./sessions-service.ts";

let db: CutpointDb;
beforeEach(() => {
  db = freshDb("session-watches");
});
afterEach(() => db.close());

/** Collects what `source` gives; `next(n)` waits until it has given n values. */
function record<T>(source: Live<T>) {
  const seen: T[] = [];
  const errors: unknown[] = [];
  const sub = source.subscribe(
    (v) => seen.push(v),
    (e) => errors.push(e),
  );
  const next = async (n: number) => {
    await expect.poll(() => seen.length).toBeGreaterThanOrEqual(n);
    return seen[n - 1]!;
  };
  return { seen, errors, next, stop: () => sub.unsubscribe() };
}

async function created(): Promise<string> {
  const r = await createEmptySession(db);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.id;
}

describe("session watches", () => {
  it("the list and the counts follow a new session and a delete", async () => {
    const list = record(watchSessionList(db));
    const count = record(watchSessionCount(db));
    const rows = record(watchStoredRowCount(db));
    expect(await list.next(1)).toEqual([]);
    expect(await count.next(1)).toBe(0);
    expect(await rows.next(1)).toBe(0);
    const id = await created();
    expect((await list.next(2)).map((r) => r.id)).toEqual([id]);
    expect(await count.next(2)).toBe(1);
    expect(await rows.next(2)).toBe(1);
    await deleteSession(db, id, 1_000);
    expect(await list.next(3)).toEqual([]);
    expect(await count.next(3)).toBe(0);
    // The deleted row is still stored until it is purged.
    await renameSession(db, id, "still here");
    expect(rows.seen.at(-1)).toBe(1);
    for (const w of [list, count, rows]) {
      expect(w.errors).toEqual([]);
      w.stop();
    }
  });

  it("a fork's parent: the row while it is stored, null when deleted, absent or itself", async () => {
    const parentId = await created();
    const parent = record(watchForkParent(db, parentId, "child"));
    expect((await parent.next(1))?.id).toBe(parentId);
    await deleteSession(db, parentId, 1_000);
    expect(await parent.next(2)).toBeNull();
    parent.stop();
    expect(await record(watchForkParent(db, "absent", "child")).next(1)).toBeNull();
    expect(await record(watchForkParent(db, "child", "child")).next(1)).toBeNull();
    expect(await record(watchForkParent(db, undefined, "child")).next(1)).toBeNull();
  });
});
