/** The import journal: a row while an import runs, gone when it ends; a row no tab holds is a leftover, named once. */
import { describe, expect, it } from "vitest";
import { header } from "../../core/session/test-builders.ts";
import { prepareSession, saveSession } from "../../db/index.ts";
import { fakeLocks } from "../../test-support/fake-locks.ts";
import { freshDb } from "../../test-support/fixture-db.ts";
import { beginImport, takeLeftoverImports } from "./import-journal.ts";

/** A lock manager of one tab, and the query another tab would make of it. */

const file = { name: "big.jsonl", size: 12_000_000 };

describe("import journal", () => {
  it("an import that ends leaves nothing; one running in a tab is no leftover", async () => {
    const db = freshDb("journal-ends");
    const { locks, query } = fakeLocks();
    const mark = beginImport(db, file, { locks, now: 1000 });
    await mark.phase("parse");
    expect(await takeLeftoverImports(db, query)).toEqual([]);
    await mark.end();
    expect(await takeLeftoverImports(db, null)).toEqual([]);
  });

  it("an import cut off (its tab gone) is named once, with its phase: nothing kept", async () => {
    const db = freshDb("journal-cut");
    const mark = beginImport(db, file, { locks: null, now: 1000 });
    void mark.phase("parse");
    await mark.phase("prepare");
    // The tab dies here: end() never runs. The next start holds no lock for it.
    const [left, ...rest] = await takeLeftoverImports(db, fakeLocks().query);
    expect(rest).toEqual([]);
    expect(left).toMatchObject({
      record: { fileName: "big.jsonl", bytes: 12_000_000, startedAt: 1000, phase: "prepare" },
      stored: false,
    });
    expect(await takeLeftoverImports(db, null)).toEqual([]);
  });

  it("cut off after its save landed: the session is said to be stored whole", async () => {
    const db = freshDb("journal-saved");
    const mark = beginImport(db, file, { locks: null, now: 1000 });
    await mark.phase("save", "sess-saved");
    await saveSession(db, prepareSession(header({ id: "sess-saved" }), []), "new", 2000);
    const [left] = await takeLeftoverImports(db, null);
    expect(left).toMatchObject({ record: { phase: "save", sessionId: "sess-saved" }, stored: true });
  });
});
