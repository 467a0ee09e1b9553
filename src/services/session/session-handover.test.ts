/**
 * Unit tests of the import's handover: the entries the import keeps are what the stored chunks
 * give back; an import offers them after the store (nothing after a cancel); the
 * loader takes a matching offer instead of reading, and a stale or expired one is dropped.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { msg, user } from "../../core/session/test-builders.ts";
import type { SessionEntry, SessionHeader } from "../../core/session/types.ts";
import { type CutpointDb, type SessionRow, saveSession } from "../../db/index.ts";
import { FIXTURE, freshDb } from "../../test-support/fixture-db.ts";
import { prepareImport } from "../import/import-prepare.ts";
import { type ImportProgress, parseFile } from "../import/import-service.ts";
import {
  createSessionHandover,
  KEEP_BYTES,
  KEEP_SESSIONS,
  type SessionHandover,
} from "./session-handover.ts";
import { loadNewEntries, loadSession } from "./session-loader.ts";
import { deleteSession } from "./sessions-service.ts";

const EXAMPLE = resolve(import.meta.dirname, "../../../public/examples/example-session.jsonl");

let db: CutpointDb;
/** The tab's owner of the entries in memory: a fresh one per test. */
let handover: SessionHandover;
beforeEach(() => {
  db = freshDb("handover");
  handover = createSessionHandover();
});
afterEach(() => db.close());

/** Parses a file as the import does, offering its entries to this test's handover. */
const parse = (file: File, onProgress?: ImportProgress) =>
  parseFile(db, file, onProgress, undefined, handover);

/** Imports `text` as the import does (keeping the parsed entries) and stores it. */
async function importKept(text: string): Promise<{ row: SessionRow; kept: SessionEntry[] }> {
  const prepared = prepareImport("f.jsonl", text, { keepEntries: true });
  if (!prepared.ok) throw new Error(prepared.error.message);
  const saved = await saveSession(db, prepared.value.prepared, "new");
  if (!saved.ok) throw new Error(saved.error.message);
  return { row: saved.value, kept: prepared.value.entries ?? [] };
}

describe("entries kept by the import", () => {
  it("are what reading the stored chunks back gives: a migrated v1 file, a v3 file with a bad line and a CRLF line", async () => {
    const v3 = readFileSync(EXAMPLE, "utf8").split("\n");
    v3[3] = "{not json";
    v3[5] = `${v3[5]}\r`;
    for (const text of [readFileSync(FIXTURE, "utf8"), v3.join("\n")]) {
      const { row, kept } = await importKept(text);
      expect(kept.length).toBe(row.entryCount);
      const read = await loadSession(db, row.id, { handover });
      expect(kept).toEqual(read?.entries);
    }
  });
});

describe("an import, handed over", () => {
  it("parses the file in slices, stores it, and offers its entries: the loader reads nothing back", async () => {
    const text = readFileSync(EXAMPLE, "utf8");
    const phases: string[] = [];
    const parsed = await parse(new File([text], "f.jsonl"), (phase) => phases.push(phase));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const saved = await parsed.value.commit("new");
    if (!saved.ok) throw new Error(saved.error.message);
    const { kept } = await importKept(text.replace(parsed.value.summary.header.id, "other-id"));
    // The stored chunks are gone: what the loader gives can only be the import's own entries.
    await db.chunks.where("sessionId").equals(saved.value.id).delete();
    const loaded = await loadSession(db, saved.value.id, { handover });
    expect(loaded?.entries).toEqual(kept);
    expect(phases).toContain("save");
    // Taken once: the next load reads the chunks (none left).
    expect((await loadSession(db, saved.value.id, { handover }))?.entries).toEqual([]);
  });

  it("shows its newest entries first from what it holds (nothing read for the preview either)", async () => {
    const parsed = await parse(new File([readFileSync(FIXTURE, "utf8")], "big.jsonl"));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const saved = await parsed.value.commit("new");
    if (!saved.ok) throw new Error(saved.error.message);
    await db.chunks.where("sessionId").equals(saved.value.id).delete();
    let preview: SessionEntry[] = [];
    const loaded = await loadSession(db, saved.value.id, {
      handover,
      onPreview: (p) => {
        preview = p.entries;
      },
    });
    expect(loaded?.entries.length).toBe(saved.value.entryCount);
    expect(preview.length).toBe(300);
    // The same objects as the whole session's last entries.
    expect(preview[0]).toBe(loaded?.entries.at(-300));
    expect(preview.at(-1)).toBe(loaded?.entries.at(-1));
  });

  it("a cancelled import offers nothing and stores nothing", async () => {
    const parsed = await parse(new File([readFileSync(EXAMPLE, "utf8")], "e.jsonl"));
    if (!parsed.ok) throw new Error(parsed.error.message);
    parsed.value.discard();
    expect(await db.sessions.count()).toBe(0);
    expect(await parsed.value.commit("new")).toMatchObject({ ok: false });
    expect(await db.sessions.count()).toBe(0);
  });
});

describe("handing entries over to the loader", () => {
  it("the loader takes the offered entries of the row it reads, instead of reading the chunks", async () => {
    const { row, kept } = await importKept(readFileSync(EXAMPLE, "utf8"));
    // Marked, to tell them from entries read back.
    const offered = kept.map((e) => ({ ...e, handed: true }) as SessionEntry);
    handover.offer(row, offered);
    const seen: number[] = [];
    const loaded = await loadSession(db, row.id, {
      handover,
      onEntries: (_list, from, to) => seen.push(to - from),
    });
    // The offered array itself (not a copy).
    expect(loaded?.entries).toBe(offered);
    expect(seen.reduce((a, b) => a + b, 0)).toBe(offered.length);
    // Taken once: the next load reads the stored chunks.
    expect((await loadSession(db, row.id, { handover }))?.entries).toEqual(kept);
  });

  it("an offer for another state of the session (re-imported, appended) is dropped, not used", () => {
    const entries = [msg("e1", null, user("one"))];
    handover.offer({ id: "s", generation: 1, lastSeq: 3 }, entries);
    expect(handover.take({ id: "s", generation: 2, lastSeq: 3 })).toBeUndefined();
    // Dropped by that look: the matching state finds nothing either.
    expect(handover.take({ id: "s", generation: 1, lastSeq: 3 })).toBeUndefined();
    handover.offer({ id: "s", generation: 1, lastSeq: 3 }, entries);
    expect(handover.take({ id: "s", generation: 1, lastSeq: 4 })).toBeUndefined();
    handover.offer({ id: "s", generation: 1, lastSeq: 3 }, entries);
    expect(handover.take({ id: "s", generation: 1, lastSeq: 3 })?.entries).toBe(entries);
    // Taken once.
    expect(handover.take({ id: "s", generation: 1, lastSeq: 3 })).toBeUndefined();
  });

  it("the view's first rows and the loader's preview are the same newest entries (one model for both)", () => {
    const entries: SessionEntry[] = [];
    for (let i = 0; i < 400; i++) entries.push(msg(`n${i}`, i === 0 ? null : `n${i - 1}`, user(`m${i}`)));
    const row = { id: "p", generation: 2, lastSeq: 5, header: { type: "session", id: "p" } as SessionHeader };
    handover.offer(row, entries);
    const peek = handover.peekNewest("p");
    expect(peek?.entries).toEqual(entries.slice(-300));
    expect(peek?.entries).toBe(handover.newestEntries(entries));
    expect(peek).toMatchObject({ generation: 2, lastSeq: 5, header: row.header });
    // Peeking takes nothing: the loader still gets the whole offer.
    expect(handover.take(row)?.entries).toBe(entries);
    expect(handover.peekNewest("p")).toBeUndefined();
    expect(handover.newestEntries(entries.slice(0, 300))).toBeUndefined();
  });

  it("an offer nobody takes is dropped after its time", () => {
    vi.useFakeTimers();
    try {
      handover.offer({ id: "t", generation: 1, lastSeq: 1 }, [msg("e1", null, user("one"))], 1000);
      vi.advanceTimersByTime(1001);
      expect(handover.take({ id: "t", generation: 1, lastSeq: 1 })).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("entries kept for a switch back", () => {
  const one = (id: string) => [msg(`${id}-1`, null, user(id))];

  it("are taken by the loader while the session is as kept: the same array, nothing read", async () => {
    const { row } = await importKept(readFileSync(EXAMPLE, "utf8"));
    const first = await loadSession(db, row.id, { handover });
    if (!first) throw new Error("not loaded");
    handover.keep(first, row.byteSize);
    // The stored chunks are gone: what the loader gives can only be the kept entries.
    await db.chunks.where("sessionId").equals(row.id).delete();
    const again = await loadSession(db, row.id, { handover });
    expect(again?.entries).toBe(first.entries);
    expect(again?.lastSeq).toBe(row.lastSeq);
    // Kept, not taken once: a second switch back finds them too.
    expect((await loadSession(db, row.id, { handover }))?.entries).toBe(first.entries);
  });

  it("after chunks were appended (another tab), the loader gives the kept prefix and its lastSeq: the rest is read as new", async () => {
    const { row } = await importKept(readFileSync(EXAMPLE, "utf8"));
    const first = await loadSession(db, row.id, { handover });
    if (!first) throw new Error("not loaded");
    // Kept as it stood one chunk earlier: a prefix of what is stored.
    const prefixCount = first.entries.length - (await db.chunks.get([row.id, row.lastSeq]))!.count;
    const prefix = { ...first, entries: first.entries.slice(0, prefixCount), lastSeq: row.lastSeq - 1 };
    handover.keep(prefix, row.byteSize);
    const again = await loadSession(db, row.id, { handover });
    expect(again?.entries).toBe(prefix.entries);
    expect(again?.lastSeq).toBe(row.lastSeq - 1);
    const caught = await loadNewEntries(db, again!);
    expect(caught.entries).toEqual(first.entries);
    expect(caught.lastSeq).toBe(row.lastSeq);
  });

  it("are not used for another generation (re-imported) nor for fewer chunks than kept, and are dropped then", () => {
    handover.keep({ id: "k", generation: 1, lastSeq: 3, entries: one("k") }, 10);
    expect(handover.take({ id: "k", generation: 2, lastSeq: 3 })).toBeUndefined();
    expect(handover.keptSessionIds()).not.toContain("k");
    handover.keep({ id: "k", generation: 1, lastSeq: 3, entries: one("k") }, 10);
    expect(handover.take({ id: "k", generation: 1, lastSeq: 2 })).toBeUndefined();
    expect(handover.keptSessionIds()).not.toContain("k");
  });

  it("an import's offer for exactly the stored state comes first", () => {
    const offered = one("o");
    handover.keep({ id: "o", generation: 1, lastSeq: 2, entries: one("o") }, 10);
    handover.offer({ id: "o", generation: 1, lastSeq: 2 }, offered);
    expect(handover.take({ id: "o", generation: 1, lastSeq: 2 })?.entries).toBe(offered);
  });

  it("the oldest are dropped beyond KEEP_SESSIONS sessions or KEEP_BYTES in all; a session bigger than that is not kept", () => {
    for (const id of handover.keptSessionIds()) handover.forget(id);
    for (let i = 0; i <= KEEP_SESSIONS; i++)
      handover.keep({ id: `n${i}`, generation: 1, lastSeq: 1, entries: one(`n${i}`) }, 1);
    expect(handover.keptSessionIds()).toEqual(Array.from({ length: KEEP_SESSIONS }, (_, i) => `n${i + 1}`));
    // Kept again: the most recent, so the next to go is n2.
    handover.keep({ id: "n1", generation: 1, lastSeq: 1, entries: one("n1") }, 1);
    handover.keep({ id: "big", generation: 1, lastSeq: 1, entries: one("big") }, KEEP_BYTES - 2);
    expect(handover.keptSessionIds()).toEqual(["n4", "n1", "big"]);
    handover.keep({ id: "huge", generation: 1, lastSeq: 1, entries: one("huge") }, KEEP_BYTES + 1);
    expect(handover.keptSessionIds()).toEqual([]);
  });

  it("a deleted session's entries are forgotten", async () => {
    const { row } = await importKept(readFileSync(EXAMPLE, "utf8"));
    const first = await loadSession(db, row.id, { handover });
    handover.keep(first!, row.byteSize);
    expect(handover.keptSessionIds()).toContain(row.id);
    expect((await deleteSession(db, row.id, undefined, { handover })).ok).toBe(true);
    expect(handover.keptSessionIds()).not.toContain(row.id);
  });
});
