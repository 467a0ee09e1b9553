/**
 * The sessions repository: whole saves exported as exact JSONL, id conflicts, all-or-nothing imports, appends
 * (strings and Blobs, listeners after commit), soft delete and purge, quota errors.
 */
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assistant, entry, header, msg, user } from "../core/session/test-builders.ts";
import type { SessionEntry } from "../core/session/types.ts";
import { chunkBytes, STRING_CHUNK_MAX_CHARS } from "./chunks.ts";
import { type CutpointDb, createDb } from "./schema.ts";
import {
  appendEntries,
  chunkText,
  exportSession,
  exportSessionBlob,
  getSession,
  listSessions,
  onEntriesAppended,
  prepareSession,
  purgeDeleted,
  readChunks,
  readEntries,
  restoreSession,
  saveSession,
  softDeleteSession,
  withNewId,
} from "./sessions-repo.ts";
import { getSetting, setSetting } from "./settings-repo.ts";

let db: CutpointDb;
beforeEach(() => {
  db = createDb("test", { indexedDB: new IDBFactory(), IDBKeyRange });
});
afterEach(() => db.close());

function manyEntries(n: number): SessionEntry[] {
  const out: SessionEntry[] = [];
  let parent: string | null = null;
  for (let i = 0; i < n; i++) {
    const id = i.toString(16).padStart(8, "0");
    const m = i % 2 === 0 ? user(`question ${i} ${"x".repeat(300)}`) : assistant(`answer ${i}`);
    out.push(msg(id, parent, m));
    parent = id;
  }
  return out;
}

async function exportText(id: string): Promise<string> {
  const r = await exportSession(db, id);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.parts.join("");
}

describe("sessions repository", () => {
  it("stores a session whole, lists metadata and exports the exact JSONL", async () => {
    const entries = manyEntries(3000);
    const h = header({ id: "s1" });
    const r = await saveSession(db, prepareSession(h, entries), "new", 1000);
    expect(r.ok).toBe(true);
    const row = await getSession(db, "s1");
    expect(row).toMatchObject({
      entryCount: 3000,
      leafId: entries[2999]!.id,
      updatedAt: 1000,
      generation: 1,
    });
    expect(row?.firstUserMessage.startsWith("question 0 xxx")).toBe(true);
    expect((await readChunks(db, "s1")).length).toBeGreaterThan(1);
    const expected = [h, ...entries].map((o) => `${JSON.stringify(o)}\n`).join("");
    expect(await exportText("s1")).toBe(expected);
    const blob = await exportSessionBlob(db, "s1", new Date("2026-12-06T03:04:05.678Z"));
    expect(blob.ok && blob.value.fileName).toBe("2026-01-01T00-00-00-000Z_s1_2026-12-06T03-04-05-678Z.jsonl");
    expect(blob.ok && (await blob.value.blob.text())).toBe(expected);
    expect(blob.ok && blob.value.blob.size).toBe(row?.byteSize);
    expect(row?.byteSize).toBe(Buffer.byteLength(expected));
    expect(await readEntries(db, "s1")).toEqual(entries);
    expect((await listSessions(db)).map((s) => s.id)).toEqual(["s1"]);
  });

  it("refuses a second session with the same id, replaces on request, copies under a new id", async () => {
    const p = prepareSession(header({ id: "dup" }), manyEntries(10));
    expect((await saveSession(db, p, "new")).ok).toBe(true);
    const again = await saveSession(db, p, "new");
    expect(again.ok ? "" : again.error.kind).toBe("conflict");
    const replaced = await saveSession(db, prepareSession(header({ id: "dup" }), manyEntries(4)), "replace");
    expect(replaced.ok && replaced.value.generation).toBe(2);
    expect((await readEntries(db, "dup")).length).toBe(4);
    expect((await saveSession(db, withNewId(p, "dup-copy"), "new")).ok).toBe(true);
    expect((await listSessions(db)).length).toBe(2);
  });

  it("an import that fails half-way writes nothing", async () => {
    const p = prepareSession(header({ id: "boom" }), manyEntries(5000));
    expect(p.chunks.length).toBeGreaterThan(2);
    db.chunks.hook("creating", (_key, obj) => {
      if ((obj as { seq: number }).seq === 3) throw new Error("disk on fire");
    });
    const r = await saveSession(db, p, "new");
    expect(r.ok).toBe(false);
    expect(await db.sessions.count()).toBe(0);
    expect(await db.chunks.count()).toBe(0);
  });

  it("appends entries in one transaction and updates count, size, leaf and name", async () => {
    const h = header({ id: "s2" });
    const base = manyEntries(5);
    await saveSession(db, prepareSession(h, base), "new", 1);
    const added = [
      msg("a1", "00000004", user("more")),
      entry("session_info", "a2", "a1", { name: "  My session " }),
    ];
    const r = await appendEntries(db, "s2", added, 50);
    expect(r.ok).toBe(true);
    const row = await getSession(db, "s2");
    expect(row).toMatchObject({ entryCount: 7, leafId: "a2", name: "My session", updatedAt: 50, lastSeq: 2 });
    const text = await exportText("s2");
    expect(row?.byteSize).toBe(Buffer.byteLength(text));
    expect(text.endsWith(`${JSON.stringify(added[1])}\n`)).toBe(true);
    expect((await readChunks(db, "s2", 1)).map((c) => c.count)).toEqual([2]);
    await appendEntries(db, "s2", [entry("leaf", "a3", "a2", { targetId: "a1" })]);
    expect((await getSession(db, "s2"))?.leafId).toBe("a1");
    const missing = await appendEntries(db, "nope", added);
    expect(missing.ok ? "" : missing.error.kind).toBe("not-found");
  });

  it("stores a small append as a string and a big one as a Blob; both read and export as the same UTF-8", async () => {
    await saveSession(db, prepareSession(header({ id: "s3" }), manyEntries(2)), "new");
    const small = msg("sm", "00000001", user("héllo 🙂 — ünïcode"));
    const big = msg("bg", "sm", assistant(`long ${"ü".repeat(STRING_CHUNK_MAX_CHARS)}`));
    expect((await appendEntries(db, "s3", [small])).ok).toBe(true);
    expect((await appendEntries(db, "s3", [big])).ok).toBe(true);
    const [first, second] = await readChunks(db, "s3", 1);
    expect(typeof first?.data).toBe("string");
    expect(second?.data).toBeInstanceOf(Blob);
    expect(first && new TextDecoder().decode(await chunkBytes(first.data))).toBe(
      `${JSON.stringify(small)}\n`,
    );
    expect(first?.bytes).toBe(Buffer.byteLength(`${JSON.stringify(small)}\n`));
    expect(first && (await chunkText(first))).toBe(`${JSON.stringify(small)}\n`);
    const expected = [header({ id: "s3" }), ...manyEntries(2), small, big]
      .map((o) => `${JSON.stringify(o)}\n`)
      .join("");
    expect(await exportText("s3")).toBe(expected);
    const blob = await exportSessionBlob(db, "s3");
    expect(blob.ok && Buffer.from(await blob.value.blob.arrayBuffer())).toEqual(Buffer.from(expected));
    expect((await getSession(db, "s3"))?.byteSize).toBe(Buffer.byteLength(expected));
    expect((await readEntries(db, "s3")).slice(-2)).toEqual([small, big]);
  });

  it("tells listeners about appends once committed, never about an append whose transaction aborted", async () => {
    await saveSession(db, prepareSession(header({ id: "n1" }), manyEntries(2)), "new");
    const seen: { seq: number; ids: string[] }[] = [];
    const stop = onEntriesAppended(db, (a) => seen.push({ seq: a.seq, ids: a.entries.map((e) => e.id) }));
    const added = entry("label", "lb1", "00000001", { targetId: "00000000", label: "x" });
    await appendEntries(db, "n1", [added]);
    expect(seen).toEqual([{ seq: 2, ids: ["lb1"] }]);
    // Inside an outer transaction that then fails: nothing is told (and nothing is stored).
    await expect(
      db.transaction("rw", db.sessions, db.chunks, async () => {
        await appendEntries(db, "n1", [entry("label", "lb2", "lb1", { targetId: "00000000" })]);
        throw new Error("later step failed");
      }),
    ).rejects.toThrow("later step failed");
    expect(seen).toHaveLength(1);
    expect((await readEntries(db, "n1")).map((e) => e.id)).toEqual(["00000000", "00000001", "lb1"]);
    stop();
    await appendEntries(db, "n1", [entry("label", "lb3", "lb1", { targetId: "00000000" })]);
    expect(seen).toHaveLength(1);
  });

  it("soft-deletes with undo, then purges", async () => {
    await saveSession(db, prepareSession(header({ id: "d1" }), manyEntries(3)), "new");
    await softDeleteSession(db, "d1", 100);
    expect(await listSessions(db)).toEqual([]);
    await restoreSession(db, "d1");
    expect((await listSessions(db)).length).toBe(1);
    await softDeleteSession(db, "d1", 100);
    expect(await purgeDeleted(db, 50)).toBe(0);
    expect(await purgeDeleted(db, 200)).toBe(1);
    expect(await db.chunks.count()).toBe(0);
    expect(await db.sessions.count()).toBe(0);
  });

  it("maps a quota error to a clear message", async () => {
    db.chunks.hook("creating", () => {
      throw new DOMException("full", "QuotaExceededError");
    });
    const r = await saveSession(db, prepareSession(header({ id: "q" }), manyEntries(2)), "new");
    expect(r.ok ? "" : r.error.kind).toBe("quota");
    expect(r.ok ? "" : r.error.message).toMatch(/storage .* is full/);
  });

  it("keeps settings", async () => {
    await setSetting(db, "theme", { mode: "dark" });
    expect(await getSetting(db, "theme")).toEqual({ mode: "dark" });
    expect(await getSetting(db, "none")).toBeUndefined();
  });
});
