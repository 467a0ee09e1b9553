/**
 * Reads what the app stored on a sync target, as another device would, for the tests' checks: each
 * object decrypted with the app's own cipher (the passphrase the devices share) and each chunk
 * decoded with the app's own chunk format.
 */
import { decodeChunk } from "../../src/core/sync/chunk-format.ts";
import { CHUNK_DIR } from "../../src/core/sync/layout.ts";
import { createSyncCipher, isEncrypted } from "../../src/services/sync/sync-crypto.ts";
import { type Running, storedObjects } from "./servers.ts";

export interface StoredChunk {
  name: string;
  /** The entries' ids, or null when the object is not a whole chunk (half-written, damaged). */
  ids: string[] | null;
}

/** The chunk objects of one session on the target, decrypted and decoded. */
export async function storedChunks(server: Running, session: string, passphrase: string) {
  // The salt and iterations come from each object; this salt is only for encrypting, never used.
  const cipher = createSyncCipher(passphrase, new Uint8Array(16));
  const out: StoredChunk[] = [];
  for (const o of storedObjects(server)) {
    if (!o.name.startsWith(`${CHUNK_DIR}${session}/`)) continue;
    const m = /\/([A-Za-z0-9_-]+)\.(\d+)$/.exec(o.name);
    const plain = isEncrypted(o.bytes) ? await cipher.decrypt(o.name, new Uint8Array(o.bytes)) : null;
    const read =
      m && plain
        ? decodeChunk(new TextDecoder().decode(plain), { session, device: m[1]!, seq: Number(m[2]) })
        : undefined;
    out.push({ name: o.name, ids: read?.ok ? read.entries.map((e) => e.id) : null });
  }
  return out;
}
