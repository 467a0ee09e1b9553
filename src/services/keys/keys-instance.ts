/** The API keys of the app database and this tab, for the UI (which never touches the database itself). */
import { db } from "../../db/instance.ts";
import {
  bindSavedKeyTo,
  forgetKey,
  type KeyStorageMode,
  keyRefFor,
  keyStatus,
  keyStores,
  maskedKeyFor,
  moveKey,
  preferredKeyMode,
  removeKeyFor,
  revealKeyFor,
  type SaveKeyInput,
  saveKey,
} from "./key-vault.ts";

export const appKeys = {
  status: (baseUrl: string) => keyStatus(keyStores(db), baseUrl),
  masked: (baseUrl: string) => maskedKeyFor(keyStores(db), baseUrl),
  /** The key to send to `baseUrl` ("" when none is saved for its origin); may ask for the passphrase. */
  refFor: (baseUrl: string) => keyRefFor(keyStores(db), baseUrl),
  reveal: (baseUrl: string) => revealKeyFor(keyStores(db), baseUrl),
  save: (input: SaveKeyInput) => saveKey(keyStores(db), input),
  move: (input: Omit<SaveKeyInput, "secret">) => moveKey(keyStores(db), input),
  remove: (baseUrl: string) => removeKeyFor(keyStores(db), baseUrl),
  bindTo: (id: string, baseUrl: string) => bindSavedKeyTo(keyStores(db), id, baseUrl),
  forget: (id: string) => forgetKey(keyStores(db), id),
  preferredMode: (): Promise<KeyStorageMode> => preferredKeyMode(db),
};
