/**
 * The API keys of this browser: each is saved for one origin (scheme://host:port of a base URL)
 * and kept on this device (IndexedDB), in this tab only (sessionStorage) or encrypted with a
 * passphrase (IndexedDB, unlocked once per page: a prompt when a request needs it). Requests get
 * a key ref, never the secret: key-guard.ts reads the secret through `installKeyLookup` below,
 * and only for a request to an origin the key is bound to. Another origin gets the key only when
 * the person chooses "Use my saved key for <origin>" (`bindSavedKeyTo`).
 */
import {
  type ApiKeyRow,
  type CutpointDb,
  deleteKeyRow,
  getKeyRow,
  getSetting,
  type KeyStorageMode,
  type KeyStores,
  listKeyRows,
  putKeyRow,
  randomUuid,
  setSetting,
} from "../../db/index.ts";
import {
  endpointOrigin,
  installKeyLookup,
  keyRef,
  revealKey as revealThroughGuard,
  type UnlockResult,
} from "../../llm/key-guard.ts";
import { providerPreset } from "../../llm/providers.ts";
import { canUsePassphrase, decryptKey, encryptKey, NO_WEBCRYPTO } from "./key-crypto.ts";

export type { KeyStorageMode, KeyStores };
export const KEY_MODE_SETTING = "agent.keyStorage";
export const KEY_MODES: readonly KeyStorageMode[] = ["device", "tab", "passphrase"];

export function keyStores(db: CutpointDb): KeyStores {
  return { db, tab: typeof sessionStorage === "undefined" ? undefined : sessionStorage };
}

// ---------------------------------------------------------------------------
// Unlocking (mode "passphrase")
// ---------------------------------------------------------------------------

export interface PassphraseRequest {
  /** Who the key was saved for (an origin or a provider name). */
  savedFor: string;
  /** Tries a passphrase: true when it unlocked the key; false = wrong (ask again). */
  check(passphrase: string): Promise<boolean>;
}

/** Asks the person for the passphrase until `check` passes (true) or they decline (false). */
export type PassphrasePrompt = (request: PassphraseRequest) => Promise<boolean>;

let prompt: PassphrasePrompt | undefined;
export function setPassphrasePrompt(fn: PassphrasePrompt | undefined): void {
  prompt = fn;
}

/** Secrets unlocked in this page (record id -> key); a reload locks them again. */
const unlocked = new Map<string, string>();
const unlocking = new Map<string, Promise<UnlockResult>>();

async function askUntilUnlocked(row: ApiKeyRow): Promise<UnlockResult> {
  const encrypted = row.encrypted;
  if (!encrypted) return { ok: false, message: "The saved key is damaged: save it again in Settings (⚙)." };
  if (!canUsePassphrase()) return { ok: false, message: NO_WEBCRYPTO };
  if (!prompt)
    return { ok: false, message: "The API key is locked with a passphrase. Unlock it in this tab." };
  const check = async (passphrase: string) => {
    const secret = await decryptKey(encrypted, passphrase);
    if (secret !== null) unlocked.set(row.id, secret);
    return secret !== null;
  };
  await prompt({ savedFor: row.savedFor, check });
  const secret = unlocked.get(row.id);
  return secret !== undefined
    ? { ok: true, secret }
    : { ok: false, message: "The API key stays locked (no passphrase entered), so nothing was sent." };
}

function unlockRow(row: ApiKeyRow): Promise<UnlockResult> {
  if (row.mode !== "passphrase" && row.secret !== undefined)
    return Promise.resolve({ ok: true, secret: row.secret });
  const cached = unlocked.get(row.id);
  if (cached !== undefined) return Promise.resolve({ ok: true, secret: cached });
  // Two requests at once (a run and a summary) share one prompt.
  let pending = unlocking.get(row.id);
  if (!pending) {
    pending = askUntilUnlocked(row).finally(() => unlocking.delete(row.id));
    unlocking.set(row.id, pending);
  }
  return pending;
}

/** Which stores handed out a key id (tests use several databases at once). */
const storesOf = new Map<string, KeyStores>();

installKeyLookup(async (id) => {
  const stores = storesOf.get(id);
  const row = stores ? await getKeyRow(stores, id) : undefined;
  return row ? { origins: row.origins, unlock: () => unlockRow(row) } : undefined;
});

// ---------------------------------------------------------------------------
// Lookup
// ---------------------------------------------------------------------------

/** Where a v1 key was sent before keys were bound: the base URL in use then, else its preset's. */
function legacyOrigin(row: ApiKeyRow): string | null {
  if (!row.legacy) return null;
  return endpointOrigin(row.legacy.baseUrl ?? providerPreset(row.legacy.providerId).baseUrl);
}

/** The key bound to `origin` (a v1 key is bound now to the origin it went to before). */
async function rowFor(stores: KeyStores, origin: string): Promise<ApiKeyRow | undefined> {
  const rows = await listKeyRows(stores);
  const bound = rows.filter((r) => r.origins.includes(origin)).pop();
  if (bound) return bound;
  const legacy = rows.find((r) => r.origins.length === 0 && legacyOrigin(r) === origin);
  if (!legacy) return undefined;
  const { legacy: _, ...rest } = legacy;
  const next: ApiKeyRow = { ...rest, origins: [origin], savedFor: origin };
  return (await putKeyRow(stores, next)).ok ? next : undefined;
}

/** The key ref for requests to `baseUrl` ("" when no key is bound to its origin). */
export async function keyRefFor(stores: KeyStores, baseUrl: string): Promise<string> {
  const origin = endpointOrigin(baseUrl);
  const row = origin ? await rowFor(stores, origin) : undefined;
  if (!row) return "";
  storesOf.set(row.id, stores);
  return keyRef(row.id);
}

export interface SavedKeyInfo {
  id: string;
  mode: KeyStorageMode;
  origins: readonly string[];
  savedFor: string;
  /** Locked with a passphrase in this page (no secret to show). */
  locked: boolean;
}

export interface KeyStatus {
  /** The origin of the base URL (null: not an http(s) URL). */
  origin: string | null;
  /** The key bound to it. */
  key: SavedKeyInfo | undefined;
  /** Keys saved for other origins, which the person may choose to use here. */
  others: SavedKeyInfo[];
}

const infoOf = (r: ApiKeyRow): SavedKeyInfo => ({
  id: r.id,
  mode: r.mode,
  origins: r.origins,
  savedFor: r.legacy ? providerPreset(r.legacy.providerId).label : r.savedFor,
  locked: r.mode === "passphrase" && !unlocked.has(r.id),
});

export async function keyStatus(stores: KeyStores, baseUrl: string): Promise<KeyStatus> {
  const origin = endpointOrigin(baseUrl);
  const row = origin ? await rowFor(stores, origin) : undefined;
  const others = (await listKeyRows(stores)).filter((r) => r.id !== row?.id).map(infoOf);
  return { origin, key: row ? infoOf(row) : undefined, others };
}

/** The secret of the key bound to `baseUrl`'s origin, to show it (may ask for the passphrase). */
export async function revealKeyFor(stores: KeyStores, baseUrl: string): Promise<UnlockResult> {
  const ref = await keyRefFor(stores, baseUrl);
  return ref === "" ? { ok: false, message: "No saved key." } : revealThroughGuard(ref);
}

// ---------------------------------------------------------------------------
// Changes
// ---------------------------------------------------------------------------

export type VaultResult = { ok: true } | { ok: false; message: string };

const needOrigin = (baseUrl: string): VaultResult => ({
  ok: false,
  message: `Enter the endpoint's base URL first (an http(s) URL; “${baseUrl}” is not one): a key is saved for one address.`,
});

/** Takes `origin` away from every key bound to it (a key left with no origin is deleted). */
async function unbind(stores: KeyStores, origin: string, keep?: string): Promise<VaultResult> {
  for (const row of await listKeyRows(stores)) {
    if (row.id === keep || !row.origins.includes(origin)) continue;
    const origins = row.origins.filter((o) => o !== origin);
    const r =
      origins.length === 0
        ? await deleteKeyRow(stores, row.id)
        : await putKeyRow(stores, { ...row, origins });
    if (!r.ok) return { ok: false, message: r.error.message };
    if (origins.length === 0) unlocked.delete(row.id);
  }
  return { ok: true };
}

export interface SaveKeyInput {
  baseUrl: string;
  secret: string;
  mode: KeyStorageMode;
  /** Required for mode "passphrase". */
  passphrase?: string;
  /** Iterations of PBKDF2 (tests lower it; never below key-crypto's minimum in the app). */
  iterations?: number;
}

/** Writes `secret` as row `base.id`, kept the way `mode` says (encrypted for "passphrase"). */
async function writeKey(
  stores: KeyStores,
  base: Omit<ApiKeyRow, "mode" | "secret" | "encrypted">,
  secret: string,
  input: Pick<SaveKeyInput, "mode" | "passphrase" | "iterations">,
): Promise<VaultResult> {
  if (input.mode === "tab" && !stores.tab)
    return { ok: false, message: "This browser gives the page no tab storage: keep the key another way." };
  let row: ApiKeyRow;
  if (input.mode === "passphrase") {
    const passphrase = input.passphrase ?? "";
    if (passphrase === "") return { ok: false, message: "Enter a passphrase to encrypt the key with." };
    if (!canUsePassphrase()) return { ok: false, message: NO_WEBCRYPTO };
    row = { ...base, mode: "passphrase", encrypted: await encryptKey(secret, passphrase, input.iterations) };
  } else row = { ...base, mode: input.mode, secret };
  const put = await putKeyRow(stores, row);
  if (!put.ok) return { ok: false, message: put.error.message };
  // Just typed by the person: unlocked for this page.
  if (input.mode === "passphrase") unlocked.set(base.id, secret);
  else unlocked.delete(base.id);
  await setSetting(stores.db, KEY_MODE_SETTING, input.mode);
  return { ok: true };
}

/** Saves a key for the origin of `baseUrl` (replacing the one saved for it). */
export async function saveKey(stores: KeyStores, input: SaveKeyInput): Promise<VaultResult> {
  const origin = endpointOrigin(input.baseUrl);
  if (!origin) return needOrigin(input.baseUrl);
  const secret = input.secret.trim();
  if (secret === "") return { ok: false, message: "The key is empty." };
  const id = randomUuid();
  const written = await writeKey(
    stores,
    { id, origins: [origin], savedFor: origin, createdAt: Date.now() },
    secret,
    input,
  );
  return written.ok ? unbind(stores, origin, id) : written;
}

/**
 * Keeps the key bound to `baseUrl`'s origin another way (device, tab, passphrase): same key, same
 * origins. A key locked with a passphrase is unlocked first (the prompt).
 */
export async function moveKey(stores: KeyStores, input: Omit<SaveKeyInput, "secret">): Promise<VaultResult> {
  const origin = endpointOrigin(input.baseUrl);
  const row = origin ? await rowFor(stores, origin) : undefined;
  if (!row) return { ok: false, message: "No key is saved for this address." };
  const secret = await unlockRow(row);
  if (!secret.ok) return secret;
  const { mode: _m, secret: _s, encrypted: _e, ...base } = row;
  return writeKey(stores, base, secret.secret, input);
}

/** Removes the key from `baseUrl`'s origin (the key itself goes when no origin is left). */
export async function removeKeyFor(stores: KeyStores, baseUrl: string): Promise<VaultResult> {
  const origin = endpointOrigin(baseUrl);
  return origin ? unbind(stores, origin) : needOrigin(baseUrl);
}

/** The person's explicit choice: the saved key `id` may be sent to `baseUrl`'s origin too. */
export async function bindSavedKeyTo(stores: KeyStores, id: string, baseUrl: string): Promise<VaultResult> {
  const origin = endpointOrigin(baseUrl);
  if (!origin) return needOrigin(baseUrl);
  const row = await getKeyRow(stores, id);
  if (!row) return { ok: false, message: "That saved key is gone." };
  const { legacy: _, ...rest } = row;
  const put = await putKeyRow(stores, { ...rest, origins: [...new Set([...row.origins, origin])] });
  if (!put.ok) return { ok: false, message: put.error.message };
  return unbind(stores, origin, id);
}

/** Deletes a saved key everywhere (all its origins). */
export async function forgetKey(stores: KeyStores, id: string): Promise<VaultResult> {
  const r = await deleteKeyRow(stores, id);
  unlocked.delete(id);
  return r.ok ? { ok: true } : { ok: false, message: r.error.message };
}

/** The storage mode chosen last (for the next key), "device" at first. */
export async function preferredKeyMode(db: CutpointDb): Promise<KeyStorageMode> {
  const v = await getSetting<unknown>(db, KEY_MODE_SETTING);
  return KEY_MODES.includes(v as KeyStorageMode) ? (v as KeyStorageMode) : "device";
}

/** A key shown masked: its first 3 and last 4 characters at most, never more than a third of it. */
export function maskKey(key: string): string {
  if (key === "") return "";
  const visible = Math.min(7, Math.floor(key.length / 3));
  const head = Math.min(3, Math.ceil(visible / 2));
  const tail = visible - head;
  return `${key.slice(0, head)}${"•".repeat(Math.max(4, Math.min(16, key.length - visible)))}${tail > 0 ? key.slice(-tail) : ""}`;
}

/** The masked key bound to `baseUrl`'s origin, when it can be read without a prompt. */
export async function maskedKeyFor(stores: KeyStores, baseUrl: string): Promise<string | null> {
  const origin = endpointOrigin(baseUrl);
  const row = origin ? await rowFor(stores, origin) : undefined;
  if (!row) return null;
  const secret = row.mode === "passphrase" ? unlocked.get(row.id) : row.secret;
  return secret === undefined ? null : maskKey(secret);
}
