/**
 * End-to-end encryption of sync objects (WebCrypto): AES-256-GCM with a key PBKDF2 derives from
 * the person's sync passphrase (key-crypto.ts's derivation) and this device's salt, a random IV
 * per object, and the object's name as additional data (an object copied under another name does
 * not decrypt). An object is "CPE1", the iterations (4 bytes), the salt (16), the IV (12), then the
 * ciphertext; a reader derives each salt's key once per page.
 */
import { deriveKey, PBKDF2_ITERATIONS } from "../keys/key-crypto.ts";

const MAGIC = [0x43, 0x50, 0x45, 0x31]; // "CPE1"
const HEAD = 4 + 4 + 16 + 12;

export function isEncrypted(bytes: Uint8Array): boolean {
  return bytes.length >= HEAD && MAGIC.every((b, i) => bytes[i] === b);
}

export interface SyncCipher {
  encrypt(name: string, plain: Uint8Array): Promise<Uint8Array>;
  /** The plain bytes, or null when the passphrase is not the one the object was written with. */
  decrypt(name: string, object: Uint8Array): Promise<Uint8Array | null>;
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** A cipher for `passphrase`; `salt` is this device's (kept in its settings, 16 bytes). */
export function createSyncCipher(
  passphrase: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations = PBKDF2_ITERATIONS,
): SyncCipher {
  const keys = new Map<string, Promise<CryptoKey>>();
  const keyFor = (s: Uint8Array<ArrayBuffer>, n: number) => {
    const id = `${n}:${hex(s)}`;
    let key = keys.get(id);
    if (!key) {
      key = deriveKey(passphrase, s, n);
      keys.set(id, key);
    }
    return key;
  };
  const aad = (name: string) => new TextEncoder().encode(name);
  return {
    async encrypt(name, plain) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = new Uint8Array(
        await crypto.subtle.encrypt(
          { name: "AES-GCM", iv, additionalData: aad(name) },
          await keyFor(salt, iterations),
          plain as Uint8Array<ArrayBuffer>,
        ),
      );
      const out = new Uint8Array(HEAD + sealed.length);
      out.set(MAGIC, 0);
      new DataView(out.buffer).setUint32(4, iterations);
      out.set(salt, 8);
      out.set(iv, 24);
      out.set(sealed, HEAD);
      return out;
    },
    async decrypt(name, object) {
      if (!isEncrypted(object)) return null;
      const n = new DataView(object.buffer, object.byteOffset, object.byteLength).getUint32(4);
      // The count comes from the server: a huge one would freeze the page.
      if (n < 1000 || n > 5_000_000) return null;
      const s = object.slice(8, 24);
      const iv = object.slice(24, HEAD);
      try {
        const plain = await crypto.subtle.decrypt(
          { name: "AES-GCM", iv, additionalData: aad(name) },
          await keyFor(s, n),
          // A view, not a copy: WebCrypto copies what it is given.
          object.subarray(HEAD) as Uint8Array<ArrayBuffer>,
        );
        return new Uint8Array(plain);
      } catch {
        return null;
      }
    },
  };
}
