/**
 * A reopen from stored outlines, through the database (the real pi session, stored in chunks):
 * every entry shown before the bodies are read, with true token counts; then the same entries
 * whole; and nothing of a stale outline shown as the session.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { estimateMessageTokensPi, PI_ESTIMATOR } from "../../core/compaction/tokens.ts";
import { OUTLINE_RULE } from "../../core/session/outline.ts";
import { ownMessage } from "../../core/session/projection.ts";
import type { CutpointDb } from "../../db/index.ts";
import { type FixtureDb, fixtureDb } from "../../test-support/fixture-db.ts";
import type { LoadedSession, OutlinedSession } from "./loaded-session.ts";
import { createSessionHandover, type SessionHandover } from "./session-handover.ts";
import { loadSession } from "./session-loader.ts";
import { storeEstimates } from "./store-token-counts.ts";

let fx: FixtureDb;
let db: CutpointDb;
/** The tab's entries in memory: a fresh one is a reload. */
let handover: SessionHandover;
beforeEach(async () => {
  handover = createSessionHandover();
  fx = await fixtureDb("outline-load");
  db = fx.db;
});
afterEach(() => {
  handover.forget(fx.sessionId);
  db.close();
});

const store = (loaded: LoadedSession) => storeEstimates(db, loaded, undefined, handover);

interface Seen {
  loaded: LoadedSession | undefined;
  outline?: { ids: string[]; awaiting: number; trueCounts: boolean; entries: OutlinedSession["entries"] };
  unstored: number;
  /** Entries that took their stored counts. */
  seeded: number;
}

/** Every message's count, as the estimator gives it now, is its real one (of the full message when given). */
function countsTrue(entries: readonly OutlinedSession["entries"][number][], full = entries): boolean {
  return entries.every((entry, i) => {
    const message = ownMessage(entry);
    const real = ownMessage(full[i]!);
    return !message || PI_ESTIMATOR.estimateMessage(message) === estimateMessageTokensPi(real!);
  });
}

async function open(signal?: AbortSignal, onOutline?: (o: OutlinedSession) => void): Promise<Seen> {
  const stats = { seeded: 0, unstored: -1 };
  const seen: Seen = { loaded: undefined, unstored: -1, seeded: -1 };
  seen.loaded = await loadSession(db, fx.sessionId, {
    handover,
    stats,
    signal,
    onPreview: () => {},
    onOutline: (o) => {
      seen.outline = {
        ids: o.entries.map((e) => e.id),
        awaiting: o.awaiting.size,
        trueCounts: countsTrue(o.entries, fx.entries),
        entries: o.entries,
      };
      onOutline?.(o);
    },
  });
  seen.unstored = stats.unstored;
  seen.seeded = stats.seeded;
  return seen;
}

const rows = () => db.chunkTokens.toArray().then((r) => r.filter((row) => row.sessionId === fx.sessionId));

describe("a reopen from stored outlines", () => {
  it("shows every entry before the bodies, with true counts, then the same entries whole", async () => {
    const first = await open();
    // Nothing stored yet: read whole, no outline; every chunk's counts and outline to store.
    expect(first.outline).toBeUndefined();
    const chunks = await db.chunks.count();
    expect(first.unstored).toBe(chunks);
    expect(await store(first.loaded!)).toEqual({ ok: true, value: chunks });
    expect((await rows()).every((r) => r.outline?.startsWith(`{"rule":"${OUTLINE_RULE}"`))).toBe(true);

    const second = await open();
    expect(second.outline?.ids).toEqual(fx.entries.map((e) => e.id));
    expect(second.outline!.awaiting).toBeGreaterThan(fx.entries.length / 2);
    expect(second.outline!.trueCounts).toBe(true);
    expect(second.unstored).toBe(0);
    // The same array, now whole: as stored, to the keys' order.
    expect(second.loaded!.entries).toBe(second.outline!.entries);
    expect(JSON.stringify(second.loaded!.entries)).toBe(JSON.stringify(fx.entries));
    expect(countsTrue(second.loaded!.entries)).toBe(true);
  });

  it("is not used for outlines of another rule, which are made again", async () => {
    await store((await open()).loaded!);
    for (const row of await rows())
      await db.chunkTokens.put({ ...row, outline: row.outline!.replace(OUTLINE_RULE, "outline/0") });
    const again = await open();
    expect(again.outline).toBeUndefined();
    expect(again.unstored).toBe(await db.chunks.count());
    expect(JSON.stringify(again.loaded!.entries)).toBe(JSON.stringify(fx.entries));
    await store(again.loaded!);
    expect((await open()).outline).toBeDefined();
  });

  it("reads a chunk whose outline does not line up whole, and shows the rest from theirs", async () => {
    await store((await open()).loaded!);
    const [first, second] = await rows();
    // The second chunk's outline in the first's row: not its entry count, or not its entries.
    await db.chunkTokens.put({ ...first!, outline: second!.outline });
    const seen = await open();
    expect(seen.outline?.ids).toEqual(fx.entries.map((e) => e.id));
    expect(seen.outline!.trueCounts).toBe(true);
    expect(JSON.stringify(seen.loaded!.entries)).toBe(JSON.stringify(fx.entries));
    // That chunk counts as not stored, took no stored counts, and is written again.
    expect(seen.unstored).toBe(1);
    expect(await store(seen.loaded!)).toEqual({ ok: true, value: 1 });
    const mended = await open();
    expect(mended.unstored).toBe(0);
    expect(mended.seeded - seen.seeded).toBe((await db.chunks.get([fx.sessionId, 1]))!.count);
  });

  it("whose entries are not the chunk's (stale) ends in a whole read: the session as stored", async () => {
    await store((await open()).loaded!);
    const [first] = await rows();
    const outline = JSON.parse(first!.outline!) as { entries: { id: string }[]; bodiless: number[] };
    outline.entries[outline.bodiless[0]!]!.id = "not-this-one";
    await db.chunkTokens.put({ ...first!, outline: JSON.stringify(outline) });
    const seen = await open();
    expect(seen.outline).toBeDefined();
    // Read again as stored, into a new array (the views rebuild on it).
    expect(seen.loaded!.entries).not.toBe(seen.outline!.entries);
    expect(JSON.stringify(seen.loaded!.entries)).toBe(JSON.stringify(fx.entries));
  });

  it("aborted while the bodies are read, gives nothing", async () => {
    await store((await open()).loaded!);
    const controller = new AbortController();
    const seen = await open(controller.signal, () => controller.abort());
    expect(seen.outline).toBeDefined();
    expect(seen.loaded).toBeUndefined();
  });
});
