/** For service tests: a fresh database, empty or holding the real pi fixture as one stored session. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { parseSessionJsonl } from "../core/session/parse.ts";
import type { SessionEntry } from "../core/session/types.ts";
import { type CutpointDb, createDb } from "../db/schema.ts";
import { prepareSession, saveSession } from "../db/sessions-repo.ts";

export const FIXTURE = resolve(import.meta.dirname, "../../../shared/fixtures/pi/before-compaction.jsonl");

export interface FixtureDb {
  db: CutpointDb;
  sessionId: string;
  entries: SessionEntry[];
}

let dbs = 0;

/** A new, empty database of its own (fake IndexedDB), named after `prefix`. */
export function freshDb(prefix: string): CutpointDb {
  return createDb(`${prefix}-${++dbs}`, { indexedDB: new IDBFactory(), IDBKeyRange });
}

/** A new database named after `name` with the fixture saved in it. */
export async function fixtureDb(name: string): Promise<FixtureDb> {
  const db = freshDb(name);
  const parsed = parseSessionJsonl(readFileSync(FIXTURE, "utf8"));
  if (!parsed.ok) throw new Error(parsed.error.message);
  const entries = parsed.value.entries;
  const saved = await saveSession(db, prepareSession(parsed.value.header, entries, 1), "new");
  if (!saved.ok) throw new Error(saved.error.message);
  return { db, sessionId: parsed.value.header.id, entries };
}
