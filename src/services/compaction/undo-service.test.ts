/** Unit tests of Undo and Redo as the UI asks them: the leaf moves, and the undone summary is offered back. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isPositionMarker } from "../../core/session/moves.ts";
import { currentPath } from "../../core/session/tree.ts";
import type { CompactionEntry, SessionEntry } from "../../core/session/types.ts";
import type { CutpointDb } from "../../db/schema.ts";
import { readEntries } from "../../db/sessions-repo.ts";
import { fixtureDb } from "../../test-support/fixture-db.ts";
import { confirmOfflineCompaction } from "../../test-support/offline-compaction.ts";
import { redoStep, undoStep } from "./undo-service.ts";

let db: CutpointDb;
let sessionId: string;
let entries: SessionEntry[];
beforeEach(async () => {
  ({ db, sessionId, entries } = await fixtureDb("undo-service"));
});
afterEach(() => db.close());

const compacted = (): Promise<CompactionEntry> => confirmOfflineCompaction(db, sessionId, entries);

const lastShown = async () =>
  currentPath(await readEntries(db, sessionId))
    .filter((e) => !isPositionMarker(e))
    .at(-1)!.id;

describe("undoStep and redoStep", () => {
  it("Undo moves the leaf back before the compaction and offers its summary as the draft; Redo moves it back", async () => {
    const entry = await compacted();
    const u = await undoStep(db, { sessionId, compaction: entry });
    if (!u.ok) throw new Error(u.message);
    expect(u.draft?.draft).toBe(entry.summary);
    expect(await lastShown()).toBe(entry.parentId);
    expect(await redoStep(db, { sessionId, compaction: entry })).toEqual({ ok: true });
    expect(await lastShown()).toBe(entry.id);
  });

  it("says why when the session is not there", async () => {
    const entry = await compacted();
    const u = await undoStep(db, { sessionId: "missing", compaction: entry });
    expect(u.ok).toBe(false);
  });
});
