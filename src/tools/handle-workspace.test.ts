/**
 * Writes over file handles where the browser has no writable streams (Safari before 26): through
 * the sync writer when given, else an error result; a failed write never leaves a new empty file,
 * and the model reads the failure as a failure, in plain words.
 */
import { describe, expect, it } from "vitest";
import { createHandleWorkspace, writeError } from "./handle-workspace.ts";
import { createWorkspaceTools, executeToolCall } from "./index.ts";
import {
  createSyncWriter,
  type SyncWriteReply,
  type SyncWriteRequest,
  type WorkerLike,
} from "./opfs-sync-writer.ts";

const domError = (name: string) => Object.assign(new Error(name), { name });

/** An in-memory directory handle shaped like OPFS's, whose files have no createWritable. */
class FakeDir {
  readonly kind = "directory";
  readonly dirs = new Map<string, FakeDir>();
  readonly files = new Map<string, string>();
  constructor(readonly name: string) {}
  async getDirectoryHandle(name: string, o: { create?: boolean } = {}) {
    if (this.files.has(name)) throw domError("TypeMismatchError");
    const d = this.dirs.get(name);
    if (!d && !o.create) throw domError("NotFoundError");
    if (d) return d;
    const made = new FakeDir(name);
    this.dirs.set(name, made);
    return made;
  }
  async getFileHandle(name: string, o: { create?: boolean } = {}) {
    if (this.dirs.has(name)) throw domError("TypeMismatchError");
    if (!this.files.has(name)) {
      if (!o.create) throw domError("NotFoundError");
      this.files.set(name, "");
    }
    const files = this.files;
    return {
      kind: "file",
      name,
      getFile: async () => new File([files.get(name) ?? ""], name),
    };
  }
  async removeEntry(name: string) {
    if (!this.files.delete(name) && !this.dirs.delete(name)) throw domError("NotFoundError");
  }
  async *values() {
    yield* this.dirs.values();
    for (const name of this.files.keys()) yield { kind: "file", name };
  }
  /** Follows a path of names (directories, then a file) to its content. */
  at(parts: string[]): string | undefined {
    let d: FakeDir | undefined = this;
    for (const p of parts.slice(0, -1)) d = d?.dirs.get(p);
    return d?.files.get(parts[parts.length - 1]!);
  }
}

const asRoot = (dir: FakeDir) => dir as unknown as FileSystemDirectoryHandle;

async function run(tools: ReturnType<typeof createWorkspaceTools>, name: string, args: object) {
  const out = await executeToolCall(tools, {
    type: "toolCall",
    id: "t",
    name,
    arguments: args as Record<string, unknown>,
  });
  return { isError: out.isError, text: out.content.map((b) => ("text" in b ? b.text : "")).join("") };
}

describe("handle workspace without writable streams", () => {
  it("with no other way to write: an error result, and no empty file left behind", async () => {
    const dir = new FakeDir("workspace");
    const tools = createWorkspaceTools(createHandleWorkspace(asRoot(dir), "opfs", "OPFS"));
    const r = await run(tools, "write", { path: "src/a.ts", content: "x" });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      "Could not write src/a.ts: this browser cannot write files here (no writable file streams). Nothing was written.",
    );
    expect(r.text).not.toMatch(/is not a function|undefined/);
    expect(dir.at(["src", "a.ts"])).toBeUndefined();
  });

  it("writes and edits through the sync writer", async () => {
    const dir = new FakeDir("workspace");
    const calls: [string, string][] = [];
    const ws = createHandleWorkspace(asRoot(dir), "opfs", "OPFS", {
      async syncWrite(path, content) {
        calls.push([path, content]);
        const parts = path.split("/");
        let d = dir;
        for (const p of parts.slice(0, -1)) d = await d.getDirectoryHandle(p, { create: true });
        d.files.set(parts[parts.length - 1]!, content);
        return { ok: true };
      },
    });
    const tools = createWorkspaceTools(ws);
    expect(await run(tools, "write", { path: "src/a.ts", content: "const a = 1;\n" })).toEqual({
      isError: false,
      text: "Created src/a.ts (13 bytes).",
    });
    expect((await run(tools, "edit", { path: "src/a.ts", oldText: "1", newText: "2" })).isError).toBe(false);
    expect(dir.at(["src", "a.ts"])).toBe("const a = 2;\n");
    expect(calls).toEqual([
      ["src/a.ts", "const a = 1;\n"],
      ["src/a.ts", "const a = 2;\n"],
    ]);
  });

  it("a refused write is an error result; a new file is removed, an existing one kept", async () => {
    const dir = new FakeDir("workspace");
    dir.files.set("old.txt", "kept");
    const ws = createHandleWorkspace(asRoot(dir), "opfs", "OPFS", {
      syncWrite: async () => ({ ok: false, name: "QuotaExceededError", message: "quota" }),
    });
    const tools = createWorkspaceTools(ws);
    const created = await run(tools, "write", { path: "new.txt", content: "x" });
    expect(created).toEqual({
      isError: true,
      text: "The browser's storage is full: new.txt was not written. Delete files that are no longer needed.",
    });
    expect(dir.files.has("new.txt")).toBe(false);
    const edited = await run(tools, "edit", { path: "old.txt", oldText: "kept", newText: "lost" });
    expect(edited.isError).toBe(true);
    expect(dir.files.get("old.txt")).toBe("kept");
  });

  it("says each refusal in plain words", () => {
    expect(writeError("NoModificationAllowedError", "a")).toMatchObject({ ok: false, code: "io" });
    expect(writeError("NoModificationAllowedError", "a").ok || writeError("x", "a")).toMatchObject({
      error: "Could not write a: the browser refused the write (x). Nothing was written.",
    });
    expect(writeError("NotAllowedError", "a")).toMatchObject({ code: "permission" });
  });
});

/** A worker double that answers each request as `answer` says (or never, to test a crash). */
function fakeWorker(answer: (r: SyncWriteRequest) => SyncWriteReply | undefined) {
  const listeners: Record<string, ((e: { data: SyncWriteReply }) => void)[]> = { message: [], error: [] };
  let made = 0;
  let terminated = 0;
  const make = (): WorkerLike => {
    made++;
    return {
      postMessage(request) {
        const reply = answer(request);
        if (reply)
          queueMicrotask(() => {
            for (const l of listeners.message!) l({ data: reply });
          });
      },
      addEventListener(type: string, l: (e: { data: SyncWriteReply }) => void) {
        listeners[type]!.push(l);
      },
      terminate: () => void terminated++,
    } as WorkerLike;
  };
  return {
    make,
    crash: () => {
      for (const l of listeners.error!) l({} as { data: SyncWriteReply });
    },
    made: () => made,
    terminated: () => terminated,
  };
}

describe("sync writer (the page's side of the OPFS write worker)", () => {
  it("matches replies to requests by id and starts one worker", async () => {
    const w = fakeWorker((r) =>
      r.content === "bad"
        ? { id: r.id, ok: false, name: "InvalidStateError", message: "locked" }
        : { id: r.id, ok: true },
    );
    const writer = createSyncWriter(w.make);
    const [a, b] = await Promise.all([writer.write(["ws", "a"], "good"), writer.write(["ws", "b"], "bad")]);
    expect(a).toEqual({ ok: true });
    expect(b).toEqual({ ok: false, name: "InvalidStateError", message: "locked" });
    expect(w.made()).toBe(1);
  });

  it("a crashed worker fails the waiting writes, and the next write starts a new one", async () => {
    let answering = false;
    const w = fakeWorker((r) => (answering ? { id: r.id, ok: true } : undefined));
    const writer = createSyncWriter(w.make);
    const waiting = writer.write(["ws", "a"], "x");
    w.crash();
    expect(await waiting).toEqual({ ok: false, name: "WorkerError", message: "the file writer stopped" });
    expect(w.terminated()).toBe(1);
    answering = true;
    expect(await writer.write(["ws", "a"], "x")).toEqual({ ok: true });
    expect(w.made()).toBe(2);
  });

  it("a worker that cannot be made is a failed write, not an exception", async () => {
    const writer = createSyncWriter(() => {
      throw new Error("CSP");
    });
    expect(await writer.write(["ws", "a"], "x")).toMatchObject({ ok: false, name: "WorkerError" });
  });
});
