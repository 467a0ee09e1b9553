/**
 * The one gate between a stored API key and the network, and the one place that builds the openai
 * SDK client. A stored key reaches the rest of the app only as a reference ("key ref"); the
 * secret is looked up here, at request time, and only when the request's origin (scheme, host and
 * port of its base URL) is one the key is bound to. Every request (agent run, compaction and
 * branch summaries, model list, connection test) goes through `openClient`.
 */
import type OpenAI from "openai";

const KEY_REF_PREFIX = "cutpoint-key-ref:";

/** The reference handed out for a stored key (no secret in it). */
export const keyRef = (id: string): string => KEY_REF_PREFIX + id;
export const isKeyRef = (apiKey: string): boolean => apiKey.startsWith(KEY_REF_PREFIX);

/** scheme://host:port of an http(s) base URL (default ports dropped), else null. */
export function endpointOrigin(baseUrl: string): string | null {
  try {
    const url = new URL(baseUrl.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    return null;
  }
}

export type UnlockResult = { ok: true; secret: string } | { ok: false; message: string };

/** What the key store says about a reference: where the key may go, and how to get its secret. */
export interface StoredKey {
  origins: readonly string[];
  /** Decrypts or reads the key (may ask the person for a passphrase). */
  unlock(): Promise<UnlockResult>;
}

export type KeyLookup = (id: string) => Promise<StoredKey | undefined>;

let lookup: KeyLookup | undefined;

/** Installed by the key store (services/keys/key-vault.ts) before it hands out any reference. */
export function installKeyLookup(fn: KeyLookup): void {
  lookup = fn;
}

/** Secrets read through this gate, with the origins they are bound to (catches a revealed key). */
const known = new Map<string, readonly string[]>();

export type RequestKey = { ok: true; secret: string | null } | { ok: false; message: string };

const listOrigins = (origins: readonly string[]) =>
  origins.length === 0 ? "no address yet" : origins.join(", ");

/** Refusal text: names the origins, never the key. */
function notBound(origins: readonly string[], baseUrl: string): RequestKey {
  const target = endpointOrigin(baseUrl) ?? baseUrl;
  return {
    ok: false,
    message: `The saved API key belongs to ${listOrigins(origins)}, so it was not sent to ${target}. Enter a key for ${target} in Settings (⚙), or choose “Use my saved key for ${target}” there.`,
  };
}

/**
 * The secret to put in the Authorization header of a request to `baseUrl`: null for no header
 * (no key), the key itself for a key typed for this request, the stored secret for a key ref
 * bound to the request's origin; a refusal otherwise.
 */
export async function keyForRequest(apiKey: string, baseUrl: string): Promise<RequestKey> {
  if (apiKey === "") return { ok: true, secret: null };
  const origin = endpointOrigin(baseUrl);
  if (!isKeyRef(apiKey)) {
    const bound = known.get(apiKey);
    if (bound && (origin === null || !bound.includes(origin))) return notBound(bound, baseUrl);
    return { ok: true, secret: apiKey };
  }
  const stored = lookup ? await lookup(apiKey.slice(KEY_REF_PREFIX.length)) : undefined;
  if (!stored)
    return {
      ok: false,
      message: "The saved API key is gone (removed in Settings?). Add a key in Settings (⚙).",
    };
  if (origin === null || !stored.origins.includes(origin)) return notBound(stored.origins, baseUrl);
  const unlocked = await stored.unlock();
  if (!unlocked.ok) return unlocked;
  known.set(unlocked.secret, stored.origins);
  return { ok: true, secret: unlocked.secret };
}

/** The secret of a key ref for showing it to the person (Reveal); it stays bound afterwards. */
export async function revealKey(ref: string): Promise<UnlockResult> {
  const stored = lookup && isKeyRef(ref) ? await lookup(ref.slice(KEY_REF_PREFIX.length)) : undefined;
  if (!stored) return { ok: false, message: "No saved key." };
  const unlocked = await stored.unlock();
  if (unlocked.ok) known.set(unlocked.secret, stored.origins);
  return unlocked;
}

const REDACTED = "[redacted key]";

/**
 * Removes a key from a text: the whole key, and the masked echoes providers put in their errors
 * ("Incorrect API key provided: sk-ab***wxyz"), which show its first and last characters.
 */
export function redactKey(text: string, secret: string | null | undefined): string {
  let out = text;
  for (const s of [secret ?? "", ...known.keys()]) {
    if (s.length >= 6) out = out.split(s).join(REDACTED);
  }
  return out.replace(/[A-Za-z0-9_-]*\*{3,}[A-Za-z0-9_.-]*/g, (m) =>
    /[A-Za-z0-9]/.test(m) || m.length >= 6 ? REDACTED : m,
  );
}

export interface ClientConfig {
  baseUrl: string;
  /** "" (no key), a key typed for this request, or a key ref of the key store. */
  apiKey: string;
}

export type OpenedClient =
  | { ok: true; client: OpenAI; secret: string | null }
  | { ok: false; message: string };

/** The openai SDK, loaded on first use (it is not part of the app's initial bundle). */
export function loadOpenAi(): Promise<typeof import("openai")> {
  return import("openai");
}

/** The SDK client for one request, with the Authorization header only where the key is bound. */
export async function openClient(config: ClientConfig, customFetch?: typeof fetch): Promise<OpenedClient> {
  const key = await keyForRequest(config.apiKey, config.baseUrl);
  if (!key.ok) return key;
  const { default: Client } = await loadOpenAi();
  const client = new Client({
    // Without a key the header is left out (the SDK insists on some apiKey value).
    apiKey: key.secret ?? "none",
    ...(key.secret === null ? { defaultHeaders: { Authorization: null } } : {}),
    baseURL: config.baseUrl.replace(/\/+$/, ""),
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
    timeout: 10 * 60 * 1000,
    ...(customFetch ? { fetch: customFetch } : {}),
  });
  return { ok: true, client, secret: key.secret };
}
