/**
 * Stored token counts through the database: written after a session's first open, used by the
 * next one, rewritten when they do not match, and gone with the entries they count.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chunkEstimates } from "../../core/compaction/stored-estimates.ts";
import { estimateMessageTokensPi, PI_ESTIMATOR } from "../../core/compaction/tokens.ts";
import { ownMessage } from "../../core/session/projection.ts";
import { PREVIEW_ENTRIES } from "../../core/session/tail-preview.ts";
import { msg, user } from "../../core/session/test-builders.ts";
import { appendEntries, type CutpointDb, prepareSession, purgeSession, saveSession } from "../../db/index.ts";
import { type FixtureDb, fixtureDb } from "../../test-support/fixture-db.ts";
import type { LoadedSession } from "./loaded-session.ts";
import { createSessionHandover, type SessionHandover } from "./session-handover.ts";
import { loadSession } from "./session-loader.ts";
import { storeEstimates } from "./store-token-counts.ts";

let fx: FixtureDb;
let db: CutpointDb;
/** The tab's entries in memory: a fresh one is a reload. */
let handover: SessionHandover;
beforeEach(async () => {
  handover = createSessionHandover();
  fx = await fixtureDb("stored-estimates");
  db = fx.db;
});
afterEach(() => {
  handover.forget(fx.sessionId);
  db.close();
});

const store = (loaded: LoadedSession) => storeEstimates(db, loaded, undefined, handover);

async function load(onPreview = false): Promise<{ loaded: LoadedSession; seeded: number; unstored: number }> {
  const stats = { seeded: 0, unstored: -1 };
  const loaded = await loadSession(db, fx.sessionId, {
    handover,
    stats,
    ...(onPreview ? { onPreview: () => {} } : {}),
  });
  if (!loaded) throw new Error("not loaded");
  return { loaded, seeded: stats.seeded, unstored: stats.unstored };
}

/** Every message's count, as the estimator gives it now, equals a real count of it. */
function expectTrueCounts(loaded: LoadedSession): void {
  for (const entry of loaded.entries) {
    const message = ownMessage(entry);
    if (message) expect(PI_ESTIMATOR.estimateMessage(message)).toBe(estimateMessageTokensPi(message));
  }
}

const tokenRows = () =>
  db.chunkTokens
    .where("sessionId" as never)
    .equals(fx.sessionId as never)
    .count();
const rowsOf = () =>
  db.chunkTokens.toArray().then((rows) => rows.filter((r) => r.sessionId === fx.sessionId));

describe("stored token counts", () => {
  it("are stored after the first open and used by the next, which counts nothing again", async () => {
    const chunks = await db.chunks.count();
    expect(chunks).toBeGreaterThan(2);
    const first = await load();
    expect(first.seeded).toBe(0);
    expect(first.unstored).toBe(chunks);
    expect(await store(first.loaded)).toEqual({ ok: true, value: chunks });
    const second = await load();
    expect(second.seeded).toBe(fx.entries.length);
    expect(second.unstored).toBe(0);
    expectTrueCounts(second.loaded);
    // Nothing new to store.
    expect(await store(second.loaded)).toEqual({ ok: true, value: 0 });
  });

  it("written in several transactions when they are many (one chunk each here): all of them, used by the next open", async () => {
    const chunks = await db.chunks.count();
    const first = await load();
    expect(await storeEstimates(db, first.loaded, undefined, handover, 1)).toEqual({
      ok: true,
      value: chunks,
    });
    expect(await tokenRows()).toBe(chunks);
    const second = await load();
    expect(second.seeded).toBe(fx.entries.length);
    expect(second.unstored).toBe(0);
    expectTrueCounts(second.loaded);
  });

  it("taken from memory (a switch back), are known stored when stored in this page: nothing to store again", async () => {
    const chunks = await db.chunks.count();
    const first = await load();
    handover.keep(first.loaded, 1);
    // Before they are stored, entries from memory have every chunk to store.
    const before = await load();
    expect(before.loaded.entries).toBe(first.loaded.entries);
    expect(before.unstored).toBe(chunks);
    expect(await store(before.loaded)).toEqual({ ok: true, value: chunks });
    const back = await load();
    expect(back.loaded.entries).toBe(first.loaded.entries);
    expect(back.unstored).toBe(0);
    // A chunk appended since (another tab): only it is to store, once its entries are loaded.
    const appended = await appendEntries(db, fx.sessionId, [
      msg("late", fx.entries.at(-1)!.id, user("late")),
    ]);
    expect(appended.ok).toBe(true);
    handover.forget(fx.sessionId);
    const fresh = await load();
    expect(fresh.unstored).toBe(1);
  });

  it("are used for every chunk but the preview's, whose entries are counted as they were parsed", async () => {
    await store((await load()).loaded);
    // The preview's chunks: the newest ones holding PREVIEW_ENTRIES entries or more.
    let previewed = 0;
    for (const row of (await rowsOf()).reverse()) {
      if (previewed >= PREVIEW_ENTRIES) break;
      previewed += row.tokens.length;
    }
    const { loaded, seeded } = await load(true);
    expect(previewed).toBeLessThan(fx.entries.length);
    expect(seeded).toBe(fx.entries.length - previewed);
    expectTrueCounts(loaded);
  });

  it("that do not match are not used, and are written again with the true counts", async () => {
    await store((await load()).loaded);
    const [, second] = await rowsOf();
    const wrong = second!.tokens.map((n) => (n === 0xffffffff ? n : n + 1));
    await db.chunkTokens.put({ ...second!, tokens: wrong });
    const { loaded, seeded, unstored } = await load();
    expect(seeded).toBe(fx.entries.length - second!.tokens.length);
    expect(unstored).toBe(1);
    expectTrueCounts(loaded);
    expect(await store(loaded)).toEqual({ ok: true, value: 1 });
    expect((await rowsOf())[1]!.tokens).toEqual(second!.tokens);
  });

  it("of an appended chunk are written on their own; the older ones stay", async () => {
    await store((await load()).loaded);
    const before = await rowsOf();
    const leaf = fx.entries.at(-1)!.id;
    expect(
      (await appendEntries(db, fx.sessionId, [msg("added-1", leaf, user("one more question"))])).ok,
    ).toBe(true);
    const { loaded, unstored } = await load();
    expect(unstored).toBe(1);
    expect(await store(loaded)).toEqual({ ok: true, value: 1 });
    const after = await rowsOf();
    expect(after.length).toBe(before.length + 1);
    expect(after.at(-1)!.tokens).toEqual(chunkEstimates(loaded.entries, fx.entries.length, 1));
  });

  it("go with the entries: a re-import replaces them, a purge removes them, a replaced load writes none", async () => {
    const { loaded } = await load();
    await store(loaded);
    expect(await tokenRows()).toBeGreaterThan(0);
    const header = loaded.header;
    expect((await saveSession(db, prepareSession(header, fx.entries, 1), "replace")).ok).toBe(true);
    expect(await tokenRows()).toBe(0);
    // The old generation's entries, copied out after the replace: nothing is written.
    expect(await store(loaded)).toEqual({ ok: true, value: 0 });
    expect(await tokenRows()).toBe(0);
    const fresh = await load();
    expect(fresh.seeded).toBe(0);
    await store(fresh.loaded);
    expect(await tokenRows()).toBeGreaterThan(0);
    expect((await purgeSession(db, fx.sessionId)).ok).toBe(true);
    expect(await tokenRows()).toBe(0);
  });
});
