/**
 * Multi-tab life of the database: when another tab opens a newer schema, close ours and tell
 * the person to reload (Dexie would otherwise block the upgrade). Purges expired deletions and
 * finds how chunks are kept here (db/chunk-form.ts).
 */
import type { CutpointDb } from "../../db/schema.ts";
import { purgeExpired } from "./sessions-service.ts";

export function watchDatabase(db: CutpointDb, onClosed: (reason: string) => void): void {
  db.on("versionchange", () => {
    db.close();
    onClosed("Cutpoint was updated in another tab. Reload this tab to go on.");
    return false;
  });
  db.on("blocked", () => {
    onClosed("Another tab with an older Cutpoint keeps the database open. Close or reload it.");
  });
  void purgeExpired(db).catch(() => undefined);
  // Whether this engine keeps Blobs in IndexedDB, found before the first write needs it.
  void db.chunkStorage.form();
}
