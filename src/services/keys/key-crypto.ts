/**
 * Passphrase encryption of an API key with WebCrypto: PBKDF2-SHA-256 (random 16-byte salt,
 * PBKDF2_ITERATIONS rounds) derives an AES-256-GCM key; a random 12-byte IV per encryption. Only
 * the ciphertext, salt, IV and parameters are returned for storage; the passphrase is never kept.
 */
import type { EncryptedKey } from "../../db/schema.ts";

/** OWASP's figure for PBKDF2-HMAC-SHA256 (2023); at least 310,000 is required here. */
export const PBKDF2_ITERATIONS = 600_000;
export const MIN_PBKDF2_ITERATIONS = 310_000;

/**
 * Whether this page can encrypt and decrypt (WebCrypto's `crypto.subtle` exists only on secure
 * pages: https or localhost; served over http on a LAN address it is missing).
 */
export function canUsePassphrase(): boolean {
  return typeof globalThis.crypto?.subtle?.deriveKey === "function";
}

/** What the person is told where `canUsePassphrase()` is false. */
export const NO_WEBCRYPTO =
  "This page cannot encrypt or decrypt keys: browsers allow it only on secure pages (https:// or localhost), and this one is served over plain http. Open Cutpoint over https or on localhost, or keep the key for this tab.";

export const toBase64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));
export const fromBase64 = (text: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** The AES-256-GCM key PBKDF2-SHA-256 derives from a passphrase (also the sync cipher's, sync-crypto.ts). */
export async function deriveKey(passphrase: string, salt: Uint8Array<ArrayBuffer>, iterations: number) {
  const material = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(passphrase),
    "PBKDF2",
    false,
    ["deriveKey"],
  );
  return crypto.subtle.deriveKey(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

export async function encryptKey(
  secret: string,
  passphrase: string,
  iterations = PBKDF2_ITERATIONS,
): Promise<EncryptedKey> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await deriveKey(passphrase, salt, iterations);
  const ciphertext = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    key,
    new TextEncoder().encode(secret),
  );
  return {
    kdf: { name: "PBKDF2", hash: "SHA-256", iterations, salt: toBase64(salt) },
    cipher: { name: "AES-GCM", iv: toBase64(iv) },
    ciphertext: toBase64(new Uint8Array(ciphertext)),
  };
}

/** The key, or null when the passphrase is wrong (or the stored values are damaged). */
export async function decryptKey(encrypted: EncryptedKey, passphrase: string): Promise<string | null> {
  try {
    const key = await deriveKey(passphrase, fromBase64(encrypted.kdf.salt), encrypted.kdf.iterations);
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64(encrypted.cipher.iv) },
      key,
      fromBase64(encrypted.ciphertext),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
