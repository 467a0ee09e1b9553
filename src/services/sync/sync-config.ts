/**
 * The sync target a person set (kept in settings, without secrets) and its credentials, kept by
 * key-vault.ts with the same choices and rules as API keys (this device, this tab, or under a
 * passphrase) and bound to the target's origin: the credentials and the encryption passphrase
 * are one vault secret (JSON), read only for requests to that origin.
 */

import { normalizePrefix } from "../../core/sync/layout.ts";
import { type CutpointDb, deleteSetting, getSetting, setSetting } from "../../db/index.ts";
import { keyForRequest } from "../../llm/key-guard.ts";
import { fromBase64, toBase64 } from "../keys/key-crypto.ts";
import { type KeyStorageMode, type KeyStores, keyRefFor, removeKeyFor, saveKey } from "../keys/key-vault.ts";
import { createS3Store } from "./sync-s3.ts";
import { done, failed, type SyncResult, type SyncStore } from "./sync-transport.ts";
import { createWebDavStore } from "./sync-webdav.ts";

export const SYNC_CONFIG_SETTING = "sync.config";
const DEVICE_SETTING = "sync.device";
const SALT_SETTING = "sync.salt";

export type SyncTarget =
  | { kind: "s3"; endpoint: string; region: string; bucket: string; prefix: string }
  | { kind: "webdav"; url: string };

export interface SyncConfig {
  target: SyncTarget;
  /** Objects are encrypted (on whenever a passphrase is set, unless the person turns it off). */
  encrypt: boolean;
}

/** What the vault keeps for a target (one JSON secret). */
export interface SyncSecrets {
  /** S3: access key id; WebDAV: user. */
  id: string;
  /** S3: secret access key; WebDAV: password or app token. */
  secret: string;
  /** The end-to-end encryption passphrase ("" = none). */
  passphrase: string;
}

export interface SyncSetup {
  target: SyncTarget;
  secrets: SyncSecrets;
  encrypt: boolean;
  /** How the credentials are kept (key-vault's modes). */
  mode: KeyStorageMode;
  /** Locks them in mode "passphrase". */
  lockPassphrase?: string;
  /** PBKDF2 iterations for mode "passphrase" (tests lower it). */
  iterations?: number;
}

/** The URL whose origin the credentials are bound to. */
export function targetUrl(target: SyncTarget): string {
  return target.kind === "s3" ? target.endpoint.trim() : target.url.trim();
}

export function describeTarget(target: SyncTarget): string {
  return target.kind === "s3"
    ? `bucket ${target.bucket} at ${target.endpoint}${target.prefix ? ` (prefix ${target.prefix})` : ""}`
    : `WebDAV folder ${target.url}`;
}

/** The target in a few words, for the session list ("bucket cutpoint", "WebDAV at cloud.example.com"). */
export function targetName(target: SyncTarget): string {
  if (target.kind === "s3") return `bucket ${target.bucket}`;
  try {
    return `WebDAV at ${new URL(target.url).host}`;
  } catch {
    return "the WebDAV folder";
  }
}

export async function loadSyncConfig(db: CutpointDb): Promise<SyncConfig | undefined> {
  const v = await getSetting<SyncConfig>(db, SYNC_CONFIG_SETTING);
  return v && typeof v === "object" && v.target ? v : undefined;
}

/** Saves the target and its secrets (vault) together; nothing is sent here. */
export async function saveSyncSetup(
  db: CutpointDb,
  stores: KeyStores,
  setup: SyncSetup,
): Promise<SyncResult<SyncConfig>> {
  const target: SyncTarget =
    setup.target.kind === "s3"
      ? { ...setup.target, prefix: normalizePrefix(setup.target.prefix) }
      : setup.target;
  if (setup.secrets.id.trim() === "" || setup.secrets.secret === "")
    return failed(
      "auth",
      target.kind === "s3"
        ? "Enter the access key id and the secret."
        : "Enter the user and the password or app token.",
    );
  const saved = await saveKey(stores, {
    baseUrl: targetUrl(target),
    secret: JSON.stringify({ ...setup.secrets, id: setup.secrets.id.trim() }),
    mode: setup.mode,
    passphrase: setup.lockPassphrase,
    iterations: setup.iterations,
  });
  if (!saved.ok) return failed("other", saved.message);
  const config: SyncConfig = { target, encrypt: setup.encrypt && setup.secrets.passphrase !== "" };
  const put = await setSetting(db, SYNC_CONFIG_SETTING, config);
  return put.ok ? done(config) : failed("other", put.error.message);
}

/** Turns sync off: the target and its credentials are forgotten; every local session stays. */
export async function clearSyncSetup(db: CutpointDb, stores: KeyStores): Promise<void> {
  const config = await loadSyncConfig(db);
  if (config) await removeKeyFor(stores, targetUrl(config.target));
  await deleteSetting(db, SYNC_CONFIG_SETTING);
}

/** The secrets, read through the key guard for the target's origin (may ask for the passphrase). */
export async function readSecrets(stores: KeyStores, target: SyncTarget): Promise<SyncResult<SyncSecrets>> {
  const url = targetUrl(target);
  const ref = await keyRefFor(stores, url);
  if (ref === "")
    return failed("auth", "No credentials are saved for this target: enter them in Settings → Sync.");
  const key = await keyForRequest(ref, url);
  if (!key.ok || key.secret === null)
    return failed("auth", key.ok ? "No credentials are saved for this target." : key.message);
  try {
    const v = JSON.parse(key.secret) as Partial<SyncSecrets>;
    return done({
      id: String(v.id ?? ""),
      secret: String(v.secret ?? ""),
      passphrase: String(v.passphrase ?? ""),
    });
  } catch {
    return failed("auth", "The saved sync credentials are damaged: enter them again.");
  }
}

export function openStore(
  target: SyncTarget,
  secrets: SyncSecrets,
  fetchImpl?: typeof fetch,
): SyncResult<SyncStore> {
  return target.kind === "s3"
    ? createS3Store(target, { accessKeyId: secrets.id, secretAccessKey: secrets.secret }, fetchImpl)
    : createWebDavStore(target, { user: secrets.id, password: secrets.secret }, fetchImpl);
}

/** This device's id on targets (made once, kept in settings). */
export async function deviceId(db: CutpointDb): Promise<string> {
  const v = await getSetting<string>(db, DEVICE_SETTING);
  if (typeof v === "string" && v !== "") return v;
  const id = `d${crypto.randomUUID().replaceAll("-", "").slice(0, 15)}`;
  await setSetting(db, DEVICE_SETTING, id);
  return id;
}

/** This device's salt for the sync key (made once, kept in settings). */
export async function deviceSalt(db: CutpointDb): Promise<Uint8Array<ArrayBuffer>> {
  const v = await getSetting<string>(db, SALT_SETTING);
  if (typeof v === "string" && v !== "") return fromBase64(v);
  const salt = crypto.getRandomValues(new Uint8Array(16));
  await setSetting(db, SALT_SETTING, toBase64(salt));
  return salt;
}
