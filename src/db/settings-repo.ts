/** Key/value settings of this browser profile (API keys live in keys-repo.ts, not here). */

import { ok, type Result, toDbError } from "./result.ts";
import type { CutpointDb } from "./schema.ts";

export async function getSetting<T>(db: CutpointDb, key: string): Promise<T | undefined> {
  const row = await db.settings.get(key);
  return row?.value as T | undefined;
}

export async function setSetting(db: CutpointDb, key: string, value: unknown): Promise<Result<void>> {
  try {
    await db.settings.put({ key, value });
    return ok(undefined);
  } catch (e) {
    return toDbError(e);
  }
}

/** Several settings at once: all are written, or (on any failure) none. */
export async function setSettings(
  db: CutpointDb,
  rows: { key: string; value: unknown }[],
): Promise<Result<void>> {
  try {
    await db.settings.bulkPut(rows);
    return ok(undefined);
  } catch (e) {
    return toDbError(e);
  }
}

export async function deleteSetting(db: CutpointDb, key: string): Promise<Result<void>> {
  try {
    await db.settings.delete(key);
    return ok(undefined);
  } catch (e) {
    return toDbError(e);
  }
}

/** Every setting whose key starts with `prefix`. */
export async function settingsWithPrefix(
  db: CutpointDb,
  prefix: string,
): Promise<{ key: string; value: unknown }[]> {
  return db.settings.where("key").startsWith(prefix).toArray();
}
