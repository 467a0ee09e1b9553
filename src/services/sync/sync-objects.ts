/**
 * Reading and writing one sync object: encrypted with the round's cipher when encryption is on
 * (sync-crypto.ts), plain otherwise; an encrypted object is read only with the passphrase it was
 * written with, and the failure says so in the person's words.
 */
import type { SyncCipher } from "./sync-crypto.ts";
import { isEncrypted } from "./sync-crypto.ts";
import { done, failed, type SyncResult, type SyncStore } from "./sync-transport.ts";

export interface ObjectIo {
  store: SyncStore;
  /** Present when encryption is on; objects are then written encrypted. */
  cipher: SyncCipher | undefined;
  /** Reads encrypted objects (set whenever a passphrase is known, even with encryption off). */
  reader: SyncCipher | undefined;
}

export function writeText(io: ObjectIo, name: string, text: string, type: string): Promise<SyncResult<void>> {
  return writeBytes(io, name, new TextEncoder().encode(text), type);
}

/** Writes `plain` (UTF-8 text of `type`), encrypted when encryption is on. */
export async function writeBytes(
  io: ObjectIo,
  name: string,
  plain: Uint8Array,
  type: string,
): Promise<SyncResult<void>> {
  const sealed = io.cipher ? await io.cipher.encrypt(name, plain) : plain;
  // Sent as a Blob: Chromium copies a byte-array body on the main thread (0.35 to 0.42 s for 1 MB
  // in headless Chromium under Playwright, against 3 to 5 ms for a Blob of it: docs/decisions.md).
  const body = new Blob([sealed as Uint8Array<ArrayBuffer>]);
  return io.store.put(name, body, io.cipher ? "application/octet-stream" : type);
}

/** The object's text; null when there is none. */
export async function readText(io: ObjectIo, name: string): Promise<SyncResult<string | null>> {
  const got = await readBytes(io, name);
  if (!got.ok || got.value === null) return got as SyncResult<null>;
  return done(new TextDecoder().decode(got.value));
}

/** The object's plain bytes (decrypted when it is encrypted); null when there is none. */
export async function readBytes(io: ObjectIo, name: string): Promise<SyncResult<Uint8Array | null>> {
  const got = await io.store.get(name);
  if (!got.ok || got.value === null) return got;
  const bytes = got.value;
  if (!isEncrypted(bytes)) return got;
  if (!io.reader)
    return failed(
      "auth",
      "The sessions on the target are encrypted: enter the encryption passphrase in Settings → Sync to read them.",
    );
  const plain = await io.reader.decrypt(name, bytes);
  if (!plain)
    return failed(
      "auth",
      "An object on the target does not decrypt with this passphrase: use the same encryption passphrase on every device.",
    );
  return done(plain);
}
