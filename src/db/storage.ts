/** Browser storage status: persistence, the quota estimate, and whether Blobs are kept. */
import type { ChunkStorage } from "./chunk-form.ts";

export interface StorageStatus {
  /** null when the browser has no StorageManager (or it failed). */
  persisted: boolean | null;
  usage: number | null;
  quota: number | null;
  /**
   * false where the engine refuses Blobs in IndexedDB (WebKit's private windows: their storage
   * goes when the window closes); null when not asked.
   */
  keepsBlobs: boolean | null;
}

function manager(): StorageManager | undefined {
  return typeof navigator !== "undefined" && navigator.storage ? navigator.storage : undefined;
}

/** Asks the browser to keep our data under storage pressure. Returns the resulting state. */
export async function requestPersistence(): Promise<boolean | null> {
  const m = manager();
  if (!m?.persist) return null;
  try {
    if (m.persisted && (await m.persisted())) return true;
    return await m.persist();
  } catch {
    return null;
  }
}

export async function readStorageStatus(chunks?: ChunkStorage): Promise<StorageStatus> {
  const keepsBlobs = chunks ? (await chunks.form()) === "blob" : null;
  const m = manager();
  if (!m) return { persisted: null, usage: null, quota: null, keepsBlobs };
  let persisted: boolean | null = null;
  let usage: number | null = null;
  let quota: number | null = null;
  try {
    persisted = m.persisted ? await m.persisted() : null;
  } catch {
    persisted = null;
  }
  try {
    const e = m.estimate ? await m.estimate() : undefined;
    usage = e?.usage ?? null;
    quota = e?.quota ?? null;
  } catch {
    // leave unknown
  }
  return { persisted, usage, quota, keepsBlobs };
}
