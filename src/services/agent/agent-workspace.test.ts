/** The workspace service where the browser storage cannot keep files: memory, said once and plainly. */
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/schema.ts";
import { createMemoryWorkspace } from "../../tools/index.ts";
import { createAgentWorkspaceService, workspaceWhere } from "./agent-workspace.ts";

describe("agent workspace", () => {
  it("falls back to memory without OPFS, says why once, and offers no browser storage", async () => {
    const db = createDb(`w-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    const service = createAgentWorkspaceService(db, { makeWorker: null });
    await service.init();
    const state = service.getState();
    expect(state.workspace?.kind).toBe("memory");
    expect(state.browserStorageWorks).toBe(false);
    expect(state.notice).toBeNull();
    expect(workspaceWhere(state)).toBe(
      "This browser gives Cutpoint no private file storage here (it needs a secure page: https or localhost). Files live in memory only and are lost on reload.",
    );
    const ws = await service.current();
    expect((await ws.writeFile("a.txt", "x")).ok).toBe(true);
    // Asked again (e.g. "switch"), the files already written in memory stay.
    await service.switchToBrowserStorage();
    expect(await (await service.current()).readFile("a.txt")).toEqual({ ok: true, value: "x" });
    db.close();
  });

  it("says one thing for each kind of workspace", () => {
    const memory = createMemoryWorkspace();
    expect(workspaceWhere({ workspace: null, memoryReason: null })).toBe("Opening the workspace…");
    expect(workspaceWhere({ workspace: memory, memoryReason: null })).toBe(
      "Files live in memory only and are lost on reload.",
    );
    expect(workspaceWhere({ workspace: { ...memory, kind: "opfs" }, memoryReason: null })).toMatch(
      /^Files live in this browser's private storage/,
    );
    expect(
      workspaceWhere({ workspace: { ...memory, kind: "folder", name: "proj" }, memoryReason: null }),
    ).toBe("Files live in the folder “proj” on this computer.");
  });
});
