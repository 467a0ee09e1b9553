/**
 * What the sync engine asks of a target (an S3-compatible bucket or a WebDAV folder): put, get
 * and list objects by name relative to the target's root, and the failures a person is told
 * about in their words (wrong credentials, CORS or unreachable, full, missing bucket or folder).
 * Every request goes to the target's own origin, checked here before credentials are attached.
 */

export type SyncFailureKind = "auth" | "unreachable" | "full" | "missing" | "other";

export interface SyncFailure {
  kind: SyncFailureKind;
  message: string;
}

export type SyncResult<T> = { ok: true; value: T } | { ok: false; error: SyncFailure };

export interface SyncStore {
  /** scheme://host:port of every request. */
  origin: string;
  /** Writes (or rewrites) an object whole. */
  put(name: string, body: Blob, contentType: string): Promise<SyncResult<void>>;
  /** An object's bytes; null when there is none. */
  get(name: string): Promise<SyncResult<Uint8Array | null>>;
  /** The names of the objects right inside folder `dir` (ends with '/'). */
  list(dir: string): Promise<SyncResult<string[]>>;
  /** Makes sure the folders exist (WebDAV; S3 has none). */
  ensureFolders(dirs: readonly string[]): Promise<SyncResult<void>>;
}

export const done = <T>(value: T): SyncResult<T> => ({ ok: true, value });
export const failed = (kind: SyncFailureKind, message: string): { ok: false; error: SyncFailure } => ({
  ok: false,
  error: { kind, message },
});

/** The origin of a URL, or null when it is not http(s). */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : null;
  } catch {
    return null;
  }
}

/** A network failure: the browser hides whether CORS, an offline device or a stopped server. */
export function unreachable(origin: string): { ok: false; error: SyncFailure } {
  const offline = typeof navigator !== "undefined" && navigator.onLine === false;
  return failed(
    "unreachable",
    offline
      ? "This device is offline: changes wait here and are sent when it is back online."
      : `Could not reach ${origin}. Either the server is down, or it does not allow requests from this page (CORS): see "CORS setup" below. Changes wait here and are sent on the next try.`,
  );
}

/** The failure an HTTP status says (`what`: "bucket" or "folder"; `detail`: the server's code). */
export function statusFailure(
  status: number,
  what: "bucket" | "folder",
  detail = "",
): { ok: false; error: SyncFailure } {
  const code = detail ? ` (${detail})` : "";
  if (status === 401 || status === 403)
    return failed(
      "auth",
      `The ${what} refused the credentials (HTTP ${status}${code}): check the ${what === "bucket" ? "access key id and secret" : "user name and password or app token"}.`,
    );
  if (status === 507 || status === 413 || /quota|storage/i.test(detail))
    return failed(
      "full",
      `The ${what} is full (HTTP ${status}${code}): free space or raise its quota. Nothing here was lost; changes wait and are sent on the next try.`,
    );
  if (status === 404 || status === 409)
    return failed(
      "missing",
      what === "bucket"
        ? `The bucket does not exist (HTTP ${status}${code}): check its name and the endpoint, or create it.`
        : `The folder does not exist (HTTP ${status}${code}): create it on the server first, or check the URL.`,
    );
  return failed("other", `The ${what} answered HTTP ${status}${code}.`);
}
