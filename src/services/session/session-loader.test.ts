/**
 * The session loader: the newest entries previewed first (and not parsed twice), every entry
 * passed once in order, only appended entries added later; abort.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { header, msg, user } from "../../core/session/test-builders.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { appendEntries, buildChunks, type CutpointDb, deriveMeta, saveSession } from "../../db/index.ts";
import { freshDb } from "../../test-support/fixture-db.ts";
import type { LoadedSession } from "./loaded-session.ts";
import { loadNewEntries, loadSession } from "./session-loader.ts";

let db: CutpointDb;
beforeEach(() => {
  db = freshDb("loader");
});
afterEach(() => db.close());

function entries(n: number, from = 0, parent: string | null = null): SessionEntry[] {
  const out: SessionEntry[] = [];
  for (let i = from; i < from + n; i++) {
    const id = `e${i}`;
    out.push(msg(id, parent, user(`message ${i}`)));
    parent = id;
  }
  return out;
}

describe("session loader", () => {
  it("shows the newest entries first, then loads every entry in order", async () => {
    const all = entries(2000);
    // Small chunks so that the session spans many rows.
    const prepared = {
      header: header({ id: "big" }),
      chunks: buildChunks(all, 2000, 50),
      meta: deriveMeta(all),
      originalVersion: 3,
    };
    expect((await saveSession(db, prepared, "new")).ok).toBe(true);
    const previews: LoadedSession[] = [];
    const loaded = await loadSession(db, "big", {
      onPreview: (p) => {
        previews.push(p);
      },
    });
    expect(loaded?.entries).toEqual(all);
    expect(loaded?.lastSeq).toBe(prepared.chunks.length);
    expect(previews.length).toBe(1);
    const tail = previews[0]!.entries;
    expect(tail.length).toBeGreaterThanOrEqual(300);
    expect(tail.length).toBeLessThan(all.length);
    expect(tail).toEqual(all.slice(all.length - tail.length));
    // The preview's chunks are not parsed again: its entries are the loaded session's last ones.
    const last = loaded!.entries.slice(-tail.length);
    expect(last.every((entry, i) => entry === tail[i])).toBe(true);
  });

  it("shows each parsed entry to onEntries once, in order, as it is parsed", async () => {
    const all = entries(3000);
    const prepared = {
      header: header({ id: "seen" }),
      chunks: buildChunks(all, 3000, 100),
      meta: deriveMeta(all),
      originalVersion: 3,
    };
    expect((await saveSession(db, prepared, "new")).ok).toBe(true);
    const seen: string[] = [];
    let calls = 0;
    const loaded = await loadSession(db, "seen", {
      onEntries: (list, from, to) => {
        calls++;
        expect(from).toBe(seen.length);
        expect(to).toBe(list.length);
        for (let i = from; i < to; i++) seen.push(list[i]!.id);
      },
    });
    expect(seen).toEqual(all.map((e) => e.id));
    expect(loaded?.entries.length).toBe(all.length);
    expect(calls).toBeGreaterThan(1);
  });

  it("adds only what was appended since, and stops when aborted", async () => {
    const base = entries(10);
    await saveSession(
      db,
      { header: header({ id: "s" }), chunks: buildChunks(base), meta: deriveMeta(base), originalVersion: 3 },
      "new",
    );
    const first = await loadSession(db, "s");
    expect(first?.entries.length).toBe(10);
    expect(await loadNewEntries(db, first!)).toBe(first);
    await appendEntries(db, "s", entries(3, 10, "e9"));
    const next = await loadNewEntries(db, first!);
    expect(next.entries.map((e) => e.id).slice(-3)).toEqual(["e10", "e11", "e12"]);
    expect(first?.entries.length).toBe(10);
    const controller = new AbortController();
    controller.abort();
    expect(await loadSession(db, "s", { signal: controller.signal })).toBeUndefined();
    expect(await loadSession(db, "missing")).toBeUndefined();
  });
});
