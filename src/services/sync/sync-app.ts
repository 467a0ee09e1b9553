/**
 * Sync for the app's own database: the Settings/Sync actions (save a target, turn sync off, read
 * what is set) the UI calls. The engine itself is the tab's services' (services/sync/sync-handle.ts).
 */
import { db } from "../../db/instance.ts";
import { keyStores } from "../keys/key-vault.ts";
import {
  clearSyncSetup,
  loadSyncConfig,
  type SyncConfig,
  type SyncSetup,
  saveSyncSetup,
} from "./sync-config.ts";
import type { SyncResult } from "./sync-transport.ts";

export function readAppSyncConfig(): Promise<SyncConfig | undefined> {
  return loadSyncConfig(db);
}

export function saveAppSyncSetup(setup: SyncSetup): Promise<SyncResult<SyncConfig>> {
  return saveSyncSetup(db, keyStores(db), setup);
}

export function clearAppSync(): Promise<void> {
  return clearSyncSetup(db, keyStores(db));
}
