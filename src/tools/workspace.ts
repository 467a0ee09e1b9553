/**
 * The workspace the agent's tools work in: a tree of text files under one root.
 * Three implementations: OPFS (default, `openOpfsWorkspace`), a folder the person picked
 * (`pickFolderWorkspace`, File System Access API) and in-memory (`createMemoryWorkspace`, tests).
 *
 * Paths are workspace-relative with "/" separators ("src/a.ts"); a leading "/" or "." is
 * accepted and means the root. ".." may not climb above the root. Errors are values.
 */

export type WsErrorCode =
  | "not-found"
  | "not-a-file"
  | "not-a-directory"
  | "invalid-path"
  | "permission"
  | "io";

export type WsResult<T> = { ok: true; value: T } | { ok: false; code: WsErrorCode; error: string };

export type EntryKind = "file" | "directory";

export interface DirEntry {
  name: string;
  kind: EntryKind;
}

export interface Stat {
  kind: EntryKind;
  /** bytes, 0 for directories */
  size: number;
  /** ms since epoch when known */
  mtime?: number;
}

export interface WalkEntry {
  /** normalized workspace-relative path */
  path: string;
  kind: EntryKind;
}

export interface Workspace {
  readonly kind: "opfs" | "folder" | "memory";
  /** Display name (folder name, "Browser storage (OPFS)", ...). */
  readonly name: string;
  readFile(path: string): Promise<WsResult<string>>;
  readBytes(path: string): Promise<WsResult<Uint8Array>>;
  /** Creates missing parent directories; replaces an existing file. */
  writeFile(path: string, content: string): Promise<WsResult<void>>;
  /** Entries of a directory, sorted by name. */
  list(path: string): Promise<WsResult<DirEntry[]>>;
  stat(path: string): Promise<WsResult<Stat>>;
  /** Every entry below `path` (depth first, sorted), skipping the names in `skipDirs`. */
  walk(
    path: string,
    options?: { skipDirs?: ReadonlySet<string>; signal?: AbortSignal },
  ): AsyncIterable<WalkEntry>;
}

export const ok = <T>(value: T): WsResult<T> => ({ ok: true, value });
export const fail = <T = never>(code: WsErrorCode, error: string): WsResult<T> => ({
  ok: false,
  code,
  error,
});

/** Directories that find/grep skip by default. */
export const DEFAULT_SKIP_DIRS: ReadonlySet<string> = new Set([".git", "node_modules"]);

/**
 * Normalizes a path to workspace-relative form ("" is the root). Returns an error for paths
 * that climb above the root, contain NUL, or use backslash tricks.
 */
export function normalizePath(input: string): WsResult<string> {
  if (typeof input !== "string") return fail("invalid-path", "Path must be a string.");
  if (input.includes("\0")) return fail("invalid-path", "Path contains a NUL character.");
  const parts: string[] = [];
  for (const part of input.replace(/\\/g, "/").split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) {
        return fail(
          "invalid-path",
          `Path "${input}" leaves the workspace root; ".." above the root is not allowed.`,
        );
      }
      parts.pop();
      continue;
    }
    parts.push(part);
  }
  return ok(parts.join("/"));
}

export const joinPath = (dir: string, name: string) => (dir === "" ? name : `${dir}/${name}`);

export function splitPath(path: string): { dir: string; name: string } {
  const i = path.lastIndexOf("/");
  return i < 0 ? { dir: "", name: path } : { dir: path.slice(0, i), name: path.slice(i + 1) };
}

/** Shows a normalized path to the model and the person ("." for the root). */
export const displayPath = (path: string) => (path === "" ? "." : path);
