/**
 * Init scripts that make Chromium behave like engines with less: IndexedDB refusing Blob values as
 * WebKit does in a private window (and in every WebDriver session), file handles without
 * `createWritable` as in Safari before 26, and no origin-private file system at all.
 */

/**
 * Every put/add of a record holding a Blob fails the way WebKit's does: the request errors with
 * UnknownError "Error preparing Blob/File data to be stored in object store" and its transaction
 * aborts. (The record goes in without the Blob first, so that a real request exists; the abort
 * undoes it.)
 */
export function refuseIdbBlobs(): void {
  const proto = IDBObjectStore.prototype;
  const holdsBlob = (v: unknown) =>
    v instanceof Blob ||
    (typeof v === "object" && v !== null && Object.values(v).some((x) => x instanceof Blob));
  for (const method of ["put", "add"] as const) {
    const real = proto[method];
    proto[method] = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (!holdsBlob(value)) return real.call(this, value, key);
      const stripped = value instanceof Blob ? "" : { ...(value as object) };
      if (stripped !== "")
        for (const [k, v] of Object.entries(stripped))
          if (v instanceof Blob) (stripped as Record<string, unknown>)[k] = "";
      const request = real.call(this, stripped, key);
      const error = new DOMException(
        "Error preparing Blob/File data to be stored in object store",
        "UnknownError",
      );
      Object.defineProperty(request, "error", { get: () => error });
      this.transaction.abort();
      return request;
    };
  }
  (globalThis as { __blobsRefused?: boolean }).__blobsRefused = true;
}

/** File handles lose `createWritable` (Safari before 26); workers keep their sync access handles. */
export function dropCreateWritable(): void {
  delete (FileSystemFileHandle.prototype as { createWritable?: unknown }).createWritable;
}

/** No origin-private file system (a page that is not secure, a private window). */
export function dropOpfs(): void {
  Object.defineProperty(StorageManager.prototype, "getDirectory", { value: undefined, configurable: true });
}
