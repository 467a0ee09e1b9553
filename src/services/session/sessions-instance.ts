/** The stored sessions over the app database, for the UI (which never touches the database itself). */
import { db } from "../../db/instance.ts";
import { readStorageStatus, requestPersistence } from "../../db/storage.ts";
import { watchDatabase } from "./db-lifecycle.ts";
import {
  watchForkParent,
  watchSessionCount,
  watchSessionList,
  watchStoredRowCount,
} from "./session-watches.ts";
import { sessionToReopen } from "./sessions-last-open.ts";
import {
  createEmptySession,
  deleteSession,
  type ExampleKind,
  exportSessionFile,
  loadExampleSession,
  pendingDeletes,
  purgeExpired,
  renameSession,
  undoDelete,
} from "./sessions-service.ts";

export type { SessionRow } from "../../db/schema.ts";
export type { StorageStatus } from "../../db/storage.ts";

export const storedSessions = {
  watchList: () => watchSessionList(db),
  watchCount: () => watchSessionCount(db),
  watchForkParent: (parentId: string | undefined, selfId: string | undefined) =>
    watchForkParent(db, parentId, selfId),
  create: () => createEmptySession(db),
  example: (kind: ExampleKind) => loadExampleSession(db, undefined, kind),
  rename: (id: string, name: string) => renameSession(db, id, name),
  remove: (id: string, options?: Parameters<typeof deleteSession>[3]) =>
    deleteSession(db, id, undefined, options),
  undoRemove: (id: string) => undoDelete(db, id),
  purgeExpired: () => purgeExpired(db),
  pendingDeletes: () => pendingDeletes(db),
  exportFile: (id: string) => exportSessionFile(db, id),
  /** The session to open at "/" (the last one opened, if it is still stored). */
  toReopen: (storage: Pick<Storage, "getItem">) => sessionToReopen(db, storage),
  /** Calls `onClosed` when the database closes under the page (another tab upgraded it, the browser dropped it). */
  watchDatabase: (onClosed: (reason: string) => void) => watchDatabase(db, onClosed),
};

/** The browser's storage: use, quota, persistence. */
export const browserStorage = {
  /** Changes whenever the storage used may have (a session stored, changed or purged). */
  watchVersion: () => watchStoredRowCount(db),
  status: () => readStorageStatus(db.chunkStorage),
  requestPersistence,
};
