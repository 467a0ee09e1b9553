/** Following a file pi appends to: new entries stored as they come, every other writer refused, a rewrite stops it. */
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assistant, msg, user } from "../../core/session/test-builders.ts";
import { type CutpointDb, createDb, FOLLOWED_WRITE, getSession, readEntries } from "../../db/index.ts";
import { createEmptySession, renameSession } from "../session/sessions-service.ts";
import { type FollowState, followFile, listPiFolder, markFollowed } from "./pi-folder.ts";

let db: CutpointDb;
let n = 0;
beforeEach(() => {
  db = createDb(`pi-folder-${++n}`, { indexedDB: new IDBFactory(), IDBKeyRange });
});
afterEach(() => {
  db.close();
});

/** A file handle over text that the test appends to, as pi does. */
function growingFile(name: string, text = "") {
  let content = text;
  const handle = {
    kind: "file",
    name,
    getFile: async () => new File([content], name, { lastModified: 1000 }),
  } as unknown as FileSystemFileHandle;
  return { handle, append: (s: string) => (content += s), replace: (s: string) => (content = s) };
}

/** Polls until `ok` (the follow reads on its own timer). */
async function waitUntil(ok: () => Promise<boolean>) {
  for (let i = 0; i < 200 && !(await ok()); i++) await new Promise((r) => setTimeout(r, 10));
}

/** Waits for the follow's next reads (it looks every 5 ms here). */
const settle = () => new Promise((r) => setTimeout(r, 60));

describe("followFile", () => {
  it("stores complete new lines as entries, waits for an unfinished one, and refuses other writers", async () => {
    const r = await createEmptySession(db);
    if (!r.ok) throw new Error(r.error.message);
    const id = r.value.id;
    await markFollowed(db, id, "--w--/s.jsonl");
    const file = growingFile("s.jsonl", '{"type":"session","id":"x"}\n');
    const states: FollowState[] = [];
    const follow = followFile(db, id, "--w--/s.jsonl", file.handle, 28, (s) => states.push(s), {
      intervalMs: 5,
    });
    const a = msg("a1", null, user("from pi"));
    const b = msg("b1", "a1", assistant("reply"));
    file.append(`${JSON.stringify(a)}\n${JSON.stringify(b).slice(0, 10)}`);
    await waitUntil(async () => (await readEntries(db, id)).length === 1);
    await settle();
    expect((await readEntries(db, id)).map((e) => e.id)).toEqual(["a1"]);
    file.append(`${JSON.stringify(b).slice(10)}\nnot json\n`);
    await waitUntil(async () => (await readEntries(db, id)).length === 2);
    expect((await readEntries(db, id)).map((e) => e.id)).toEqual(["a1", "b1"]);
    expect(states.at(-1)).toMatchObject({ appended: 2, skipped: 1 });
    expect((await getSession(db, id))?.leafId).toBe("b1");
    // The person's own writes are refused while the session follows pi's file.
    const renamed = await renameSession(db, id, "mine");
    expect(renamed.ok ? "" : renamed.error.message).toBe(FOLLOWED_WRITE);
    // pi rewrote the file (shorter): the follow ends and says so.
    file.replace("{}\n");
    await waitUntil(async () => states.at(-1)?.problem !== undefined);
    expect(states.at(-1)?.problem).toMatch(/got shorter/);
    follow.stop();
    await markFollowed(db, id, undefined);
    expect((await renameSession(db, id, "mine")).ok).toBe(true);
  });
});

describe("listPiFolder", () => {
  it("groups session files by project folder with their facts", async () => {
    const header = (id: string, cwd: string) =>
      JSON.stringify({ type: "session", version: 3, id, cwd, timestamp: "2026-01-01T00:00:00.000Z" });
    const a = msg("u1", null, user("fix the parser"));
    const c = JSON.stringify({
      type: "compaction",
      id: "c1",
      parentId: "u1",
      timestamp: "2026-01-01T00:00:01.000Z",
      summary: "s",
      firstKeptEntryId: "u1",
      tokensBefore: 5,
    });
    const dir = (name: string, children: FileSystemHandle[]) =>
      ({
        kind: "directory",
        name,
        values: async function* () {
          yield* children;
        },
      }) as unknown as FileSystemDirectoryHandle;
    const f1 = growingFile("1.jsonl", `${header("s1", "/home/me/app")}\n${JSON.stringify(a)}\n${c}\n`).handle;
    const f2 = growingFile("2.jsonl", `${header("s2", "/home/me/other")}\n`).handle;
    const root = dir("sessions", [
      dir("--home-me-app--", [f1]),
      dir("--home-me-other--", [f2]),
      growingFile("notes.txt").handle,
    ]);
    const listing = await listPiFolder(root);
    expect(listing.projects.map((p) => p.cwd).sort()).toEqual(["/home/me/app", "/home/me/other"]);
    const app = listing.projects.find((p) => p.cwd === "/home/me/app")!;
    expect(app.sessions[0]).toMatchObject({ path: "--home-me-app--/1.jsonl", counted: true });
    expect(app.sessions[0]!.summary).toMatchObject({
      id: "s1",
      entries: 2,
      compactions: 1,
      firstMessage: "fix the parser",
    });
  });
});
