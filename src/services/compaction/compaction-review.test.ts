/**
 * Around the compaction review: Redo after Undo, a saved review kept per session across a reload,
 * and a session's own compaction mode and trigger.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isPositionMarker } from "../../core/session/moves.ts";
import { currentPath } from "../../core/session/tree.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import type { CutpointDb } from "../../db/schema.ts";
import { readEntries } from "../../db/sessions-repo.ts";
import { fixtureDb } from "../../test-support/fixture-db.ts";
import { confirmOfflineCompaction } from "../../test-support/offline-compaction.ts";
import { loadSavedReview, readSavedReview, saveReview, undoneDraftOf } from "./compaction-drafts.ts";
import { redoCompaction, undoCompaction } from "./compaction-runner.ts";
import {
  loadCompactionSettings,
  saveCompactionSettings,
  saveSessionCompactionSettings,
} from "./compaction-settings.ts";

let db: CutpointDb;
let sessionId: string;
let entries: SessionEntry[];

beforeEach(async () => {
  ({ db, sessionId, entries } = await fixtureDb("compaction-review"));
});
afterEach(() => db.close());

describe("redoCompaction", () => {
  it("after Undo, moves the leaf back to the compaction; the path ends with it again", async () => {
    const compaction = await confirmOfflineCompaction(db, sessionId, entries);
    const u = await undoCompaction(db, { sessionId, compaction });
    expect(u.ok).toBe(true);
    // The path now ends with a move (a custom entry pi 1.6 understands) standing at the old leaf.
    const undone = currentPath(await readEntries(db, sessionId));
    expect(undone.filter((e) => !isPositionMarker(e)).at(-1)!.id).toBe(compaction.parentId);
    const again = await redoCompaction(db, { sessionId, compaction });
    expect(again.ok).toBe(true);
    const path = currentPath(await readEntries(db, sessionId));
    expect(path.filter((e) => !isPositionMarker(e)).at(-1)!.id).toBe(compaction.id);
    expect(path.some((e) => e.id === compaction.id)).toBe(true);
  });
});

describe("saved reviews", () => {
  it("keep a session's draft across a reload, apart from other sessions; an empty one is removed", async () => {
    const review = {
      draft: "## Goal\nKeep going",
      draftSource: "offline" as const,
      draftTarget: {
        firstKeptEntryId: "x",
        tokensBefore: 10,
        readFiles: ["a"],
        modifiedFiles: [],
        record: { model: "m1", durationMs: 1200, costUsd: 0.002 },
      },
      undoneFrom: "c1",
      focus: "parser",
      keepRecentOverride: 5000,
      cutEntryId: null,
      summarizerModel: null,
      previewOpen: true,
      coverageDismissed: ["file:src/a.ts"],
    };
    expect((await saveReview(db, "s1", review)).ok).toBe(true);
    expect(await loadSavedReview(db, "s1")).toEqual(review);
    expect(await loadSavedReview(db, "s2")).toBeUndefined();
    await saveReview(db, "s1", {
      ...review,
      draft: "",
      draftTarget: null,
      focus: "",
      keepRecentOverride: null,
      previewOpen: false,
      coverageDismissed: [],
    });
    expect(await loadSavedReview(db, "s1")).toBeUndefined();
    expect(
      readSavedReview({ draft: 3, keepRecentOverride: -1, draftTarget: { firstKeptEntryId: 1 } }),
    ).toMatchObject({
      draft: "",
      keepRecentOverride: null,
      draftTarget: null,
    });
  });
});

describe("the draft an undone compaction gives back", () => {
  const entry = {
    type: "compaction" as const,
    id: "c9",
    parentId: "p",
    timestamp: "2026-01-01T00:00:00.000Z",
    summary: "## Goal\nShip it",
    firstKeptEntryId: "k1",
    tokensBefore: 4200,
    details: {
      readFiles: ["a.ts"],
      modifiedFiles: ["b.ts"],
      cutpoint: { trigger: "masking", model: "", durationMs: 5, maskedOutputs: 3 },
      coverage: { covered: 1 },
    },
    usage: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 12 },
  };

  it("is its summary at its cut, with its file lists, record (not this review's masking) and usage", () => {
    expect(undoneDraftOf(entry as never)).toEqual({
      draft: "## Goal\nShip it",
      draftSource: "offline",
      undoneFrom: "c9",
      draftTarget: {
        firstKeptEntryId: "k1",
        tokensBefore: 4200,
        readFiles: ["a.ts"],
        modifiedFiles: ["b.ts"],
        record: { model: "", durationMs: 5 },
        usage: entry.usage,
      },
    });
  });

  it("a model's summary says so; pi's own (no record) counts as a model's; none without a summary or cut", () => {
    const byModel = { ...entry, details: { ...entry.details, cutpoint: { trigger: "manual", model: "m" } } };
    expect(undoneDraftOf(byModel as never)?.draftSource).toBe("model");
    expect(undoneDraftOf({ ...entry, details: undefined } as never)).toMatchObject({
      draftSource: "model",
      draftTarget: { readFiles: [], modifiedFiles: [] },
    });
    expect(undoneDraftOf({ ...entry, summary: "  " } as never)).toBeUndefined();
    expect(undoneDraftOf({ ...entry, firstKeptEntryId: undefined } as never)).toBeUndefined();
  });
});

describe("per-session trigger", () => {
  it("a session's own mode and trigger override the settings for all sessions, only there", async () => {
    await saveCompactionSettings(db, { mode: "ask", trigger: { kind: "reserve" } });
    await saveSessionCompactionSettings(db, "s1", {
      mode: "remind",
      trigger: { kind: "percent", percent: 75 },
    });
    const s1 = await loadCompactionSettings(db, "s1");
    expect(s1.mode).toBe("remind");
    expect(s1.trigger).toEqual({ kind: "percent", percent: 75 });
    expect((await loadCompactionSettings(db, "s2")).mode).toBe("ask");
    expect((await loadCompactionSettings(db)).trigger).toEqual({ kind: "reserve" });
    await saveSessionCompactionSettings(db, "s1", null);
    expect((await loadCompactionSettings(db, "s1")).mode).toBe("ask");
  });
});
