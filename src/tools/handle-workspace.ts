/**
 * Workspace over a FileSystemDirectoryHandle: the origin-private file system (OPFS, the default)
 * or a local folder picked with the File System Access API (Chromium browsers; feature-detected).
 */
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
  return fail("io", `Could not access ${displayPath(path)}: ${String((err as Error)?.message ?? err)}`);
}

export function createHandleWorkspace(
  root: FileSystemDirectoryHandle,
  kind: "opfs" | "folder",
  name: string,
): Workspace {
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
      try {
        const fh = await d.value.getFileHandle(base, { create: true });
        const writable = await fh.createWritable();
        await writable.write(content);
        await writable.close();
        return ok(undefined);
      } catch (err) {
        const e = errorOf(err, n.value);
        return !e.ok && e.code === "not-a-file"
          ? fail("not-a-file", `${n.value} is a directory, not a file.`)
          : e;
      }
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

/** The default workspace: the origin-private file system, under a "workspace" directory. */
export async function openOpfsWorkspace(
  dirName = "workspace",
): Promise<{ ok: true; value: Workspace } | { ok: false; error: string }> {
  const storage = (globalThis as { navigator?: Navigator }).navigator?.storage;
  if (!storage || typeof storage.getDirectory !== "function") {
    return { ok: false, error: "This browser has no origin-private file system (OPFS)." };
  }
  try {
    const root = await storage.getDirectory();
    const dir = await root.getDirectoryHandle(dirName, { create: true });
    return { ok: true, value: createHandleWorkspace(dir, "opfs", "Browser storage (OPFS)") };
  } catch (err) {
    return {
      ok: false,
      error: `Could not open the browser's file storage: ${String((err as Error)?.message ?? err)}`,
    };
  }
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
