/** Errors are values at boundaries. */
export type Result<T, E = DbError> = { ok: true; value: T } | { ok: false; error: E };

export interface DbError {
  /** "busy": the session is being run (here or in another tab); nothing was written. */
  kind: "quota" | "not-found" | "conflict" | "busy" | "blocked" | "unknown";
  message: string;
}

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const fail = (kind: DbError["kind"], message: string): { ok: false; error: DbError } => ({
  ok: false,
  error: { kind, message },
});

function errorName(e: unknown): string {
  if (e && typeof e === "object") {
    const inner = (e as { inner?: unknown }).inner;
    const name = (e as { name?: unknown }).name;
    if (name === "QuotaExceededError") return name;
    if (inner && typeof inner === "object" && (inner as { name?: unknown }).name === "QuotaExceededError")
      return "QuotaExceededError";
    if (typeof name === "string") return name;
  }
  return "Error";
}

/** Turns an exception thrown by IndexedDB/Dexie into a DbError with a clear message. */
export function toDbError(e: unknown): { ok: false; error: DbError } {
  const name = errorName(e);
  if (name === "QuotaExceededError") {
    return fail(
      "quota",
      "The browser's storage for Cutpoint is full. Nothing was written. Delete or export old sessions, or free disk space, then try again.",
    );
  }
  if (name === "DatabaseClosedError" || name === "VersionChangeError") {
    return fail("blocked", "The database was closed (Cutpoint was updated in another tab). Reload this tab.");
  }
  const message = e instanceof Error ? e.message : String(e);
  return fail("unknown", `Storage error: ${message}`);
}
