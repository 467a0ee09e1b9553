/**
 * The Dexie database of Cutpoint. Two version numbers exist (architecture.md, convention 4):
 * the session format version (core/session/migrate) and this schema version. Add a new
 * `this.version(n)` with an `upgrade()` only when data has to move.
 *
 * Tables:
 * - `sessions`: metadata only (the session list never reads entries).
 * - `chunks`: the entries, as a Blob of the v3 JSONL of N consecutive entries per row (chunks.ts).
 * - `settings`: key/value (provider, model, compaction settings, API keys, ...).
 */
import { Dexie, type EntityTable, type Table } from "dexie";
import type { SessionHeader } from "../core/session/types.ts";

export const DB_NAME = "cutpoint";

export interface SessionRow {
  /** = header.id */
  id: string;
  header: SessionHeader;
  /** Latest session_info name; undefined shows the first user message instead. */
  name: string | undefined;
  firstUserMessage: string;
  /** ms since epoch: the header's timestamp. */
  createdAt: number;
  /** ms since epoch: last write (import, append, rename). */
  updatedAt: number;
  entryCount: number;
  /** UTF-8 size of the v3 export (header line + entries). */
  byteSize: number;
  /** The current leaf (null = before the first entry). */
  leafId: string | null;
  /** Highest chunk seq written (chunks are 1..lastSeq). */
  lastSeq: number;
  /** Bumped when the entries are replaced as a whole (re-import "replace"): readers reload. */
  generation: number;
  /** Format version of the imported file before migration (3 for sessions made here). */
  originalVersion: number;
  /** Soft delete (for Undo); purged later. Indexed as 0 when not deleted. */
  deletedAt: number;
}

export interface ChunkRow {
  sessionId: string;
  seq: number;
  /**
   * JSONL of the entries, each line ending in "\n" (read with `chunkText` / `chunkBytes`): a Blob
   * of UTF-8 bytes, or a string for a small chunk (`STRING_CHUNK_MAX_CHARS`; appends).
   */
  data: Blob | string;
  count: number;
  bytes: number;
  /** Generation of the session this chunk belongs to. */
  generation: number;
}

export interface SettingRow {
  key: string;
  value: unknown;
}

export type CutpointDb = Dexie & {
  sessions: EntityTable<SessionRow, "id">;
  chunks: Table<ChunkRow, [string, number]>;
  settings: EntityTable<SettingRow, "key">;
};

export interface DbDeps {
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
}

/** Opens (lazily, on first use) the database. Tests pass their own name and fake IndexedDB. */
export function createDb(name = DB_NAME, deps: DbDeps = {}): CutpointDb {
  const db = new Dexie(name, deps) as CutpointDb;
  db.version(1).stores({
    sessions: "id, updatedAt, deletedAt",
    chunks: "[sessionId+seq]",
    settings: "key",
  });
  return db;
}
