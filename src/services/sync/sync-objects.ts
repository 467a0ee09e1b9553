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

export async function writeText(
  io: ObjectIo,
  name: string,
  text: string,
  type: string,
): Promise<SyncResult<void>> {
  const plain = new TextEncoder().encode(text);
  const body = io.cipher ? await io.cipher.encrypt(name, plain) : plain;
  return io.store.put(name, body, io.cipher ? "application/octet-stream" : type);
}

/** The object's text; null when there is none. */
export async function readText(io: ObjectIo, name: string): Promise<SyncResult<string | null>> {
  const got = await io.store.get(name);
  if (!got.ok || got.value === null) return got as SyncResult<null>;
  let bytes = got.value;
  if (isEncrypted(bytes)) {
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
    bytes = plain;
  }
  return done(new TextDecoder().decode(bytes));
}
