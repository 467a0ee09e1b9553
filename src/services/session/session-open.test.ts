/**
 * Unit tests of the session open as a service: the phases come in order (preview, outline,
 * whole), each waits for the view to say the one before is on screen, the counts are stored
 * after the view's work on the whole session, and an aborted open is heard no more.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CutpointDb } from "../../db/schema.ts";
import { type FixtureDb, fixtureDb } from "../../test-support/fixture-db.ts";
import { createSessionHandover, type SessionHandover } from "./session-handover.ts";
import { type OpenListener, openSession } from "./session-open.ts";

let fx: FixtureDb;
let db: CutpointDb;
let handover: SessionHandover;
beforeEach(async () => {
  fx = await fixtureDb("session-open");
  db = fx.db;
  handover = createSessionHandover();
});
afterEach(() => db.close());

const tokenRows = () =>
  db.chunkTokens.toArray().then((rows) => rows.filter((r) => r.sessionId === fx.sessionId).length);

/** The phases heard, by name (the progress reports left out). */
const names = (phases: string[]) => phases.filter((p) => p !== "progress").map((p) => p.split(" ")[0]);

/** A listener that writes down each phase and its entries; `hold` makes a phase wait for it. */
function recorder(hold: Partial<Record<"preview" | "outline" | "whole", Promise<void>>> = {}) {
  const phases: string[] = [];
  const listener: OpenListener = {
    progress: () => {
      if (phases.at(-1) !== "progress") phases.push("progress");
    },
    preview: (p) => {
      phases.push(`preview ${p.entries.length}`);
      return hold.preview;
    },
    outline: (o) => {
      phases.push(`outline ${o.entries.length}`);
      return hold.outline;
    },
    whole: (s) => {
      phases.push(`whole ${s?.entries.length}`);
      return hold.whole;
    },
  };
  return { phases, listener };
}

describe("openSession", () => {
  it("first open: preview, then the whole session; the counts are stored after the view's work on it", async () => {
    const n = fx.entries.length;
    let release!: () => void;
    const viewDone = new Promise<void>((r) => {
      release = r;
    });
    const { phases, listener } = recorder({ whole: viewDone });
    const opened = openSession(db, handover, fx.sessionId, listener, new AbortController().signal);
    // Held by the view's work: nothing stored yet.
    await vi.waitFor(() => expect(phases.at(-1)).toBe(`whole ${n}`), { timeout: 5000 });
    expect(await tokenRows()).toBe(0);
    release();
    await opened;
    expect(names(phases)).toEqual(["preview", "whole"]);
    expect(Number(phases.find((p) => p.startsWith("preview"))?.split(" ")[1])).toBeLessThan(n);
    expect(await tokenRows()).toBeGreaterThan(0);
  });

  it("a reopen from stored outlines: preview, outline (every entry), whole, in that order", async () => {
    await openSession(db, handover, fx.sessionId, recorder().listener, new AbortController().signal);
    // A reload: nothing in memory.
    const { phases, listener } = recorder();
    await openSession(db, createSessionHandover(), fx.sessionId, listener, new AbortController().signal);
    const n = fx.entries.length;
    expect(names(phases)).toEqual(["preview", "outline", "whole"]);
    expect(phases.filter((p) => p !== "progress").slice(1)).toEqual([`outline ${n}`, `whole ${n}`]);
  });

  it("the next phase waits until the view says the preview is on screen", async () => {
    let painted!: () => void;
    const paint = new Promise<void>((r) => {
      painted = r;
    });
    const { phases, listener } = recorder({ preview: paint });
    const opened = openSession(db, handover, fx.sessionId, listener, new AbortController().signal);
    await vi.waitFor(() => expect(names(phases)).toEqual(["preview"]));
    await new Promise((r) => setTimeout(r, 100));
    expect(names(phases)).toEqual(["preview"]);
    painted();
    await opened;
    expect(phases.at(-1)).toBe(`whole ${fx.entries.length}`);
  });

  it("an aborted open is heard no more, and stores nothing", async () => {
    const controller = new AbortController();
    const { phases, listener } = recorder();
    listener.preview = () => {
      phases.push("preview");
      controller.abort();
    };
    await openSession(db, handover, fx.sessionId, listener, controller.signal);
    expect(phases.filter((p) => p !== "progress")).toEqual(["preview"]);
    expect(await tokenRows()).toBe(0);
  });

  it("a switch back takes the entries kept in memory: the same array, and the whole session at once", async () => {
    let first: unknown;
    const one = recorder();
    one.listener.whole = (s) => {
      first = s?.entries;
      if (s) handover.keep(s, 1);
    };
    await openSession(db, handover, fx.sessionId, one.listener, new AbortController().signal);
    let again: unknown;
    const two = recorder();
    two.listener.whole = (s) => {
      again = s?.entries;
    };
    await openSession(db, handover, fx.sessionId, two.listener, new AbortController().signal);
    expect(again).toBe(first);
  });
});
