/**
 * Workspace over a FileSystemDirectoryHandle: the origin-private file system (OPFS, the default)
 * or a local folder picked with the File System Access API (Chromium browsers; feature-detected).
 * Writes use writable streams where the browser has them, else (OPFS) a worker's sync access
 * handle; a failed write is an error result and leaves no new empty file behind.
 */
import type { SyncWriteResult, SyncWriter } from "./opfs-sync-writer.ts";
import {
  type DirEntry,
  displayPath,
  fail,
  joinPath,
  normalizePath,
  ok,
  type Stat,
  splitPath,
  type WalkEntry,
  type Workspace,
  type WsResult,
} from "./workspace.ts";

type IterableDirectory = FileSystemDirectoryHandle & { values(): AsyncIterable<FileSystemHandle> };
type PermissionHandle = FileSystemDirectoryHandle & {
  queryPermission?(d: { mode: "read" | "readwrite" }): Promise<PermissionState>;
  requestPermission?(d: { mode: "read" | "readwrite" }): Promise<PermissionState>;
};

function errorOf(err: unknown, path: string): WsResult<never> {
  const name = (err as { name?: string } | null)?.name;
  if (name === "NotFoundError") return fail("not-found", `Not found: ${displayPath(path)}`);
  if (name === "TypeMismatchError") return fail("not-a-file", `Wrong kind of entry at ${displayPath(path)}.`);
  if (name === "NotAllowedError" || name === "SecurityError") {
    return fail(
      "permission",
      `No permission to access ${displayPath(path)}; grant access to the folder again.`,
    );
  }
  if (err instanceof TypeError)
    return fail("io", `Could not access ${displayPath(path)}: this browser lacks the file operation needed.`);
  return fail("io", `Could not access ${displayPath(path)}: ${String((err as Error)?.message ?? err)}`);
}

/** A failed write in plain words, by the error's name (the model and the person read it). */
export function writeError(name: string, path: string): WsResult<never> {
  const p = displayPath(path);
  if (name === "QuotaExceededError")
    return fail(
      "io",
      `The browser's storage is full: ${p} was not written. Delete files that are no longer needed.`,
    );
  if (name === "NoModificationAllowedError" || name === "InvalidStateError")
    return fail("io", `${p} is in use elsewhere (another tab?), so it was not written. Try again.`);
  if (name === "NotAllowedError" || name === "SecurityError")
    return fail("permission", `No permission to write ${p}; grant access to the folder again.`);
  if (name === "TypeMismatchError") return fail("not-a-file", `${p} is a directory, not a file.`);
  return fail("io", `Could not write ${p}: the browser refused the write (${name}). Nothing was written.`);
}

type WritableFileHandle = FileSystemFileHandle & { createWritable?: FileSystemFileHandle["createWritable"] };

/** Whether this browser writes files with writable streams (Chromium, Firefox, Safari 26+). */
export function hasWritableStreams(): boolean {
  const proto = (globalThis as { FileSystemFileHandle?: { prototype?: object } }).FileSystemFileHandle
    ?.prototype;
  return typeof (proto as { createWritable?: unknown } | undefined)?.createWritable === "function";
}

export interface HandleWorkspaceOptions {
  /**
   * Writes a file (workspace-relative path) another way where the handle has no `createWritable`:
   * OPFS through a worker's sync access handle (opfs-sync-writer.ts).
   */
  syncWrite?: (path: string, content: string) => Promise<SyncWriteResult>;
}

export function createHandleWorkspace(
  root: FileSystemDirectoryHandle,
  kind: "opfs" | "folder",
  name: string,
  options: HandleWorkspaceOptions = {},
): Workspace {
  /** Replaces the content of `fh` (at `path`): a writable stream, else the sync writer. */
  async function writeContent(
    fh: WritableFileHandle,
    path: string,
    content: string,
  ): Promise<WsResult<void>> {
    if (typeof fh.createWritable === "function") {
      const writable = await fh.createWritable();
      try {
        await writable.write(content);
        await writable.close();
      } catch (err) {
        // The stream writes a copy: aborting it leaves the file as it was.
        await writable.abort().catch(() => undefined);
        throw err;
      }
      return ok(undefined);
    }
    if (options.syncWrite) {
      const r = await options.syncWrite(path, content);
      return r.ok ? ok(undefined) : writeError(r.name, path);
    }
    return fail(
      "io",
      `Could not write ${displayPath(path)}: this browser cannot write files here (no writable file streams). Nothing was written.`,
    );
  }

  async function dirHandle(path: string, create: boolean): Promise<WsResult<FileSystemDirectoryHandle>> {
    let dir = root;
    let walked = "";
    for (const part of path === "" ? [] : path.split("/")) {
      walked = joinPath(walked, part);
      try {
        dir = await dir.getDirectoryHandle(part, { create });
      } catch (err) {
        return errorOf(err, walked);
      }
    }
    return ok(dir);
  }

  async function fileHandle(path: string): Promise<WsResult<FileSystemFileHandle>> {
    const n = normalizePath(path);
    if (!n.ok) return n;
    if (n.value === "") return fail("not-a-file", "The workspace root is a directory, not a file.");
    const { dir, name: base } = splitPath(n.value);
    const d = await dirHandle(dir, false);
    if (!d.ok) return d;
    try {
      return ok(await d.value.getFileHandle(base));
    } catch (err) {
      const e = errorOf(err, n.value);
      if (!e.ok && e.code === "not-a-file")
        return fail("not-a-file", `${n.value} is a directory, not a file.`);
      if (!e.ok && e.code === "not-found") return fail("not-found", `File not found: ${n.value}`);
      return e;
    }
  }

  async function entriesOf(dir: FileSystemDirectoryHandle): Promise<DirEntry[]> {
    const out: DirEntry[] = [];
    for await (const h of (dir as IterableDirectory).values()) out.push({ name: h.name, kind: h.kind });
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  return {
    kind,
    name,
    async readFile(path) {
      const h = await fileHandle(path);
      if (!h.ok) return h;
      try {
        return ok(await (await h.value.getFile()).text());
      } catch (err) {
        return errorOf(err, path);
      }
    },
    async readBytes(path) {
      const h = await fileHandle(path);
      if (!h.ok) return h;
      try {
        return ok(new Uint8Array(await (await h.value.getFile()).arrayBuffer()));
      } catch (err) {
        return errorOf(err, path);
      }
    },
    async writeFile(path, content) {
      const n = normalizePath(path);
      if (!n.ok) return n;
      if (n.value === "") return fail("not-a-file", "The workspace root is a directory, not a file.");
      const { dir, name: base } = splitPath(n.value);
      const d = await dirHandle(dir, true);
      if (!d.ok)
        return d.code === "not-a-file" ? fail("not-a-directory", `${dir} is a file, not a directory.`) : d;
      let existed = true;
      try {
        await d.value.getFileHandle(base);
      } catch (err) {
        if ((err as { name?: string } | null)?.name === "TypeMismatchError")
          return fail("not-a-file", `${n.value} is a directory, not a file.`);
        existed = false;
      }
      let written: WsResult<void>;
      try {
        const fh = await d.value.getFileHandle(base, { create: true });
        written = await writeContent(fh, n.value, content);
      } catch (err) {
        written = writeError(String((err as { name?: unknown } | null)?.name ?? "Error"), n.value);
      }
      // A failed write of a new file leaves no empty file behind.
      if (!written.ok && !existed) await d.value.removeEntry(base).catch(() => undefined);
      return written;
    },
    async list(path) {
      const n = normalizePath(path);
      if (!n.ok) return n;
      const d = await dirHandle(n.value, false);
      if (!d.ok) {
        if (d.code === "not-a-file") return fail("not-a-directory", `${n.value} is a file, not a directory.`);
        if (d.code === "not-found") return fail("not-found", `Directory not found: ${displayPath(n.value)}`);
        return d;
      }
      try {
        return ok(await entriesOf(d.value));
      } catch (err) {
        return errorOf(err, n.value);
      }
    },
    async stat(path): Promise<WsResult<Stat>> {
      const n = normalizePath(path);
      if (!n.ok) return n;
      if (n.value === "") return ok({ kind: "directory", size: 0 });
      const { dir, name: base } = splitPath(n.value);
      const d = await dirHandle(dir, false);
      if (!d.ok) return d;
      try {
        const file = await (await d.value.getFileHandle(base)).getFile();
        return ok({ kind: "file", size: file.size, mtime: file.lastModified });
      } catch {
        try {
          await d.value.getDirectoryHandle(base);
          return ok({ kind: "directory", size: 0 });
        } catch (err) {
          return errorOf(err, n.value);
        }
      }
    },
    async *walk(path, options = {}): AsyncIterable<WalkEntry> {
      const n = normalizePath(path);
      if (!n.ok) return;
      const start = await dirHandle(n.value, false);
      if (!start.ok) return;
      const stack: [string, FileSystemDirectoryHandle][] = [[n.value, start.value]];
      while (stack.length > 0) {
        if (options.signal?.aborted) return;
        const [dirPath, handle] = stack.pop()!;
        const subdirs: [string, FileSystemDirectoryHandle][] = [];
        for (const e of await entriesOf(handle)) {
          const p = joinPath(dirPath, e.name);
          if (e.kind === "directory") {
            if (options.skipDirs?.has(e.name)) continue;
            yield { path: p, kind: "directory" };
            subdirs.push([p, await handle.getDirectoryHandle(e.name)]);
          } else yield { path: p, kind: "file" };
        }
        stack.push(...subdirs.reverse());
      }
    },
  };
}

/** The file a write check creates and removes (where writes go through the sync writer). */
const WRITE_CHECK = ".cutpoint-write-check";

/**
 * The default workspace: the origin-private file system, under a "workspace" directory. Where
 * files have no writable streams, writes go through `syncWriter` (a worker's sync access handle),
 * checked once here by writing and removing a file; without a way to write, no workspace (the
 * caller keeps files in memory and says so).
 */
export async function openOpfsWorkspace(
  dirName = "workspace",
  syncWriter?: SyncWriter,
): Promise<{ ok: true; value: Workspace } | { ok: false; error: string }> {
  const storage = (globalThis as { navigator?: Navigator }).navigator?.storage;
  if (!storage || typeof storage.getDirectory !== "function") {
    return {
      ok: false,
      error:
        "This browser gives Cutpoint no private file storage here (it needs a secure page: https or localhost).",
    };
  }
  let dir: FileSystemDirectoryHandle;
  try {
    const root = await storage.getDirectory();
    dir = await root.getDirectoryHandle(dirName, { create: true });
  } catch {
    return {
      ok: false,
      error: "This window does not let Cutpoint keep files in the browser's storage (a private window?).",
    };
  }
  const name = "Browser storage (OPFS)";
  if (hasWritableStreams()) return { ok: true, value: createHandleWorkspace(dir, "opfs", name) };
  const noWrites = "This browser cannot write files in its private storage here.";
  if (!syncWriter) return { ok: false, error: noWrites };
  const check = await syncWriter.write([dirName, WRITE_CHECK], "");
  await dir.removeEntry(WRITE_CHECK).catch(() => undefined);
  if (!check.ok) return { ok: false, error: noWrites };
  const syncWrite = (path: string, content: string) =>
    syncWriter.write([dirName, ...path.split("/")], content);
  return { ok: true, value: createHandleWorkspace(dir, "opfs", name, { syncWrite }) };
}

export function isFolderPickerSupported(): boolean {
  return typeof (globalThis as { showDirectoryPicker?: unknown }).showDirectoryPicker === "function";
}

/**
 * Asks the person to pick a local folder (must run in a click handler). Read-write permission is
 * requested up front. A cancelled picker is `{ok:false, cancelled:true}`.
 */
export async function pickFolderWorkspace(): Promise<
  | { ok: true; value: Workspace; handle: FileSystemDirectoryHandle }
  | { ok: false; error: string; cancelled: boolean }
> {
  const picker = (globalThis as { showDirectoryPicker?: (o: object) => Promise<FileSystemDirectoryHandle> })
    .showDirectoryPicker;
  if (typeof picker !== "function") {
    return {
      ok: false,
      cancelled: false,
      error:
        "This browser cannot open local folders (File System Access API); use the browser storage workspace.",
    };
  }
  try {
    const handle = await picker({ mode: "readwrite" });
    return { ok: true, value: await workspaceFromFolderHandle(handle), handle };
  } catch (err) {
    if ((err as { name?: string })?.name === "AbortError")
      return { ok: false, cancelled: true, error: "Cancelled." };
    return {
      ok: false,
      cancelled: false,
      error: `Could not open the folder: ${String((err as Error)?.message ?? err)}`,
    };
  }
}

/** Re-opens a stored folder handle (e.g. kept in IndexedDB), re-requesting permission if needed. */
export async function workspaceFromFolderHandle(handle: FileSystemDirectoryHandle): Promise<Workspace> {
  const h = handle as PermissionHandle;
  if (h.queryPermission && (await h.queryPermission({ mode: "readwrite" })) !== "granted") {
    await h.requestPermission?.({ mode: "readwrite" });
  }
  return createHandleWorkspace(handle, "folder", handle.name);
}
