/**
 * Where sync objects live on a target and what their names say (pure): every device writes only
 * names that carry its own device id, and a chunk's name is never written with other entries.
 *
 *   <prefix>cutpoint-sync/v1/manifests/<device>.json          the device's manifest (it alone rewrites it)
 *   <prefix>cutpoint-sync/v1/chunks/<session>/<device>.<seq>   the device's seq-th chunk of a session
 *
 * Chunks live one folder per session so a WebDAV target needs two folder levels, and a reader
 * never lists chunks: the manifests say how many each device wrote.
 */

export const LAYOUT_ROOT = "cutpoint-sync/v1/";
export const MANIFEST_DIR = `${LAYOUT_ROOT}manifests/`;
export const CHUNK_DIR = `${LAYOUT_ROOT}chunks/`;

/** Ids that may appear in an object name: letters, digits, '-', '_' (1 to 64). */
const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function isSafeId(id: string): boolean {
  return SAFE_ID.test(id);
}

/** The prefix as given, with one trailing '/' when it is not empty ("" stays ""). */
export function normalizePrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/^\/+|\/+$/g, "");
  return trimmed === "" ? "" : `${trimmed}/`;
}

export function manifestKey(device: string): string {
  return `${MANIFEST_DIR}${device}.json`;
}

/** The device id a manifest's name carries (undefined: not a manifest name). */
export function deviceOfManifest(name: string): string | undefined {
  const base = name.slice(name.lastIndexOf("/") + 1);
  const m = /^([A-Za-z0-9_-]{1,64})\.json$/.exec(base);
  return m?.[1];
}

/** Zero-padded so that names sort in write order. */
export function chunkKey(session: string, device: string, seq: number): string {
  return `${CHUNK_DIR}${session}/${device}.${String(seq).padStart(8, "0")}`;
}

/** The folders a target without implicit folders (WebDAV) must have before a chunk is written. */
export function chunkFolders(session: string): string[] {
  return [...manifestFolders(), CHUNK_DIR, `${CHUNK_DIR}${session}/`];
}

/** The folders before a manifest is written, outermost first. */
export function manifestFolders(): string[] {
  return ["cutpoint-sync/", LAYOUT_ROOT, MANIFEST_DIR];
}
