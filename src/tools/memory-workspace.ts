/** In-memory Workspace, for unit tests and demos. Directories exist explicitly or implicitly (as parents). */
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

export interface MemoryWorkspace extends Workspace {
  /** Snapshot of all files (normalized path -> content). */
  files(): Map<string, string>;
  mkdir(path: string): void;
}

const encoder = new TextEncoder();

export function createMemoryWorkspace(
  initial: Record<string, string> = {},
  options: { now?: () => number } = {},
): MemoryWorkspace {
  const now = options.now ?? (() => 0);
  const files = new Map<string, { content: string; mtime: number }>();
  const dirs = new Set<string>([""]);

  const addParents = (path: string) => {
    let { dir } = splitPath(path);
    while (!dirs.has(dir)) {
      dirs.add(dir);
      dir = splitPath(dir).dir;
    }
  };
  for (const [p, content] of Object.entries(initial)) {
    const n = normalizePath(p);
    if (!n.ok || n.value === "") throw new Error(`bad initial path ${p}`);
    files.set(n.value, { content, mtime: now() });
    addParents(n.value);
  }

  const isDir = (p: string) => dirs.has(p);

  async function readFile(path: string): Promise<WsResult<string>> {
    const n = normalizePath(path);
    if (!n.ok) return n;
    const f = files.get(n.value);
    if (f) return ok(f.content);
    if (isDir(n.value)) return fail("not-a-file", `${displayPath(n.value)} is a directory, not a file.`);
    return fail("not-found", `File not found: ${displayPath(n.value)}`);
  }

  function children(dir: string): DirEntry[] {
    const out = new Map<string, DirEntry>();
    const prefix = dir === "" ? "" : `${dir}/`;
    for (const p of files.keys()) {
      if (!p.startsWith(prefix)) continue;
      const rest = p.slice(prefix.length);
      const slash = rest.indexOf("/");
      if (slash < 0) out.set(rest, { name: rest, kind: "file" });
      else out.set(rest.slice(0, slash), { name: rest.slice(0, slash), kind: "directory" });
    }
    for (const d of dirs) {
      if (d === "" || !d.startsWith(prefix)) continue;
      const rest = d.slice(prefix.length);
      if (rest !== "" && !rest.includes("/")) out.set(rest, { name: rest, kind: "directory" });
    }
    return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  const ws: MemoryWorkspace = {
    kind: "memory",
    name: "Memory",
    readFile,
    async readBytes(path) {
      const r = await readFile(path);
      return r.ok ? ok(encoder.encode(r.value)) : r;
    },
    async writeFile(path, content) {
      const n = normalizePath(path);
      if (!n.ok) return n;
      if (n.value === "" || isDir(n.value)) {
        return fail("not-a-file", `${displayPath(n.value)} is a directory, not a file.`);
      }
      let { dir } = splitPath(n.value);
      while (dir !== "") {
        if (files.has(dir)) return fail("not-a-directory", `${dir} is a file, not a directory.`);
        dir = splitPath(dir).dir;
      }
      files.set(n.value, { content, mtime: now() });
      addParents(n.value);
      return ok(undefined);
    },
    async list(path) {
      const n = normalizePath(path);
      if (!n.ok) return n;
      if (files.has(n.value)) return fail("not-a-directory", `${n.value} is a file, not a directory.`);
      if (!isDir(n.value)) return fail("not-found", `Directory not found: ${displayPath(n.value)}`);
      return ok(children(n.value));
    },
    async stat(path): Promise<WsResult<Stat>> {
      const n = normalizePath(path);
      if (!n.ok) return n;
      const f = files.get(n.value);
      if (f) return ok({ kind: "file", size: encoder.encode(f.content).length, mtime: f.mtime });
      if (isDir(n.value)) return ok({ kind: "directory", size: 0 });
      return fail("not-found", `Not found: ${displayPath(n.value)}`);
    },
    async *walk(path, options = {}): AsyncIterable<WalkEntry> {
      const n = normalizePath(path);
      if (!n.ok || !isDir(n.value)) return;
      const stack = [n.value];
      while (stack.length > 0) {
        if (options.signal?.aborted) return;
        const dir = stack.pop()!;
        const entries = children(dir);
        const subdirs: string[] = [];
        for (const e of entries) {
          const p = joinPath(dir, e.name);
          if (e.kind === "directory") {
            if (options.skipDirs?.has(e.name)) continue;
            yield { path: p, kind: "directory" };
            subdirs.push(p);
          } else yield { path: p, kind: "file" };
        }
        stack.push(...subdirs.reverse());
      }
    },
    files: () => new Map([...files].map(([k, v]) => [k, v.content])),
    mkdir(path) {
      const n = normalizePath(path);
      if (!n.ok) throw new Error(n.error);
      dirs.add(n.value);
      addParents(n.value);
    },
  };
  return ws;
}
