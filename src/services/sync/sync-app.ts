/**
 * Sync for the app's own database: the engine over this browser's IndexedDB and key stores, and
 * the Settings/Sync actions (save a target, turn sync off, read what is set) the UI calls.
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
import { createSyncEngine, type SyncEngine } from "./sync-engine.ts";
import type { SyncResult } from "./sync-transport.ts";

export function startAppSync(): SyncEngine {
  return createSyncEngine({ db, stores: keyStores(db) });
}

export function readAppSyncConfig(): Promise<SyncConfig | undefined> {
  return loadSyncConfig(db);
}

export function saveAppSyncSetup(setup: SyncSetup): Promise<SyncResult<SyncConfig>> {
  return saveSyncSetup(db, keyStores(db), setup);
}

export function clearAppSync(): Promise<void> {
  return clearSyncSetup(db, keyStores(db));
}
