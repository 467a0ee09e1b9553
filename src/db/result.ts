/** Errors are values at boundaries; a storage failure is said in plain words with what to do. */
import { isBlobRefusal } from "./chunk-form.ts";

export type Result<T, E = DbError> = { ok: true; value: T } | { ok: false; error: E };

export interface DbError {
  /**
   * "busy": the session is being run (here or in another tab); nothing was written.
   * "unavailable": this window gives the page no usable storage (private window, site data off).
   */
  kind: "quota" | "not-found" | "conflict" | "busy" | "blocked" | "unavailable" | "unknown";
  /** What the person is told. */
  message: string;
  /** The engine's own words (for a bug report, never shown as the message). */
  detail?: string;
}

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const fail = (
  kind: DbError["kind"],
  message: string,
  detail?: string,
): { ok: false; error: DbError } => ({
  ok: false,
  error: detail === undefined ? { kind, message } : { kind, message, detail },
});

/** The names of an error and of the errors it wraps (Dexie keeps the DOMException as `inner`). */
function errorNames(e: unknown): string[] {
  const names: string[] = [];
  for (let err = e, depth = 0; err && typeof err === "object" && depth < 3; depth++) {
    const name = (err as { name?: unknown }).name;
    if (typeof name === "string") names.push(name);
    err = (err as { inner?: unknown }).inner;
  }
  return names;
}

export const STORAGE_FULL =
  "The browser's storage for Cutpoint is full. Nothing was written. Delete or export old sessions, or free disk space, then try again.";
export const STORAGE_UNAVAILABLE =
  "This window does not let Cutpoint keep anything in the browser's storage (a private window, or site data turned off for this site). Nothing was written. Open Cutpoint in a normal window, or allow site data for it in the browser's settings.";
export const STORAGE_REFUSED_FILES =
  "This window's storage refused the session's contents (Safari's private windows refuse stored files). Nothing was written. Reload the page and try again, or open Cutpoint in a normal window.";
export const STORAGE_FAILED =
  "The browser's storage refused the write. Nothing was written. Try again; if it keeps failing, export the sessions you need and reload the page.";

/** Turns an exception thrown by IndexedDB/Dexie into a DbError with a plain message. */
export function toDbError(e: unknown): { ok: false; error: DbError } {
  const names = errorNames(e);
  const detail = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  const has = (...wanted: string[]) => names.some((n) => wanted.includes(n));
  if (has("QuotaExceededError")) return fail("quota", STORAGE_FULL, detail);
  if (has("DatabaseClosedError", "VersionChangeError")) {
    return fail(
      "blocked",
      "The database was closed (Cutpoint was updated in another tab). Reload this tab.",
      detail,
    );
  }
  if (isBlobRefusal(e)) return fail("unknown", STORAGE_REFUSED_FILES, detail);
  if (has("MissingAPIError", "OpenFailedError", "SecurityError", "InvalidStateError"))
    return fail("unavailable", STORAGE_UNAVAILABLE, detail);
  return fail("unknown", STORAGE_FAILED, detail);
}
