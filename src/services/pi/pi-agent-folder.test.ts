// The folder chosen for pi: its agent folder (settings read, sessions from sessions/) or its sessions folder, told apart by what it holds.
import { describe, expect, it } from "vitest";
import { msg, user } from "../../core/session/test-builders.ts";
import { openPiFolder, piFolderLayout } from "./pi-agent-folder.ts";

describe("piFolderLayout", () => {
  it("pi's agent folder: sessions in sessions/, with the settings files it holds", () => {
    expect(
      piFolderLayout({
        files: ["auth.json", "settings.json", "models.json"],
        dirs: ["sessions", "extensions"],
      }),
    ).toEqual({ chosen: "agent", sessionsDir: "sessions", settingsFiles: ["settings", "models"] });
    expect(piFolderLayout({ files: ["models.json"], dirs: ["sessions"] })).toEqual({
      chosen: "agent",
      sessionsDir: "sessions",
      settingsFiles: ["models"],
    });
  });

  it("an agent folder without sessions yet is still pi's agent folder", () => {
    expect(piFolderLayout({ files: ["settings.json"], dirs: [] })).toEqual({
      chosen: "agent",
      sessionsDir: null,
      settingsFiles: ["settings"],
    });
  });

  it("pi's sessions folder: one folder per project, no settings", () => {
    expect(piFolderLayout({ files: [], dirs: ["--home-me-app--", "--home-me-other--"] })).toEqual({
      chosen: "sessions",
      sessionsDir: null,
      settingsFiles: [],
    });
    // A file merely named like pi's, inside a project, is not looked at: only the top counts.
    expect(piFolderLayout({ files: ["a.jsonl", "Settings.JSON"], dirs: [] }).chosen).toBe("sessions");
  });
});

/** An in-memory folder: names to texts (files) or to nested folders. */
type Tree = { [name: string]: string | Tree };

function folder(name: string, tree: Tree): FileSystemDirectoryHandle {
  const handleOf = (n: string, v: string | Tree): FileSystemHandle =>
    typeof v === "string"
      ? ({ kind: "file", name: n, getFile: async () => new File([v], n) } as unknown as FileSystemHandle)
      : folder(n, v);
  const find = (n: string, kind: string) => {
    const v = tree[n];
    if (v === undefined || (typeof v === "string") !== (kind === "file"))
      return Promise.reject(new DOMException("missing", "NotFoundError"));
    return Promise.resolve(handleOf(n, v));
  };
  return {
    kind: "directory",
    name,
    values: async function* () {
      for (const [n, v] of Object.entries(tree)) yield handleOf(n, v);
    },
    getDirectoryHandle: (n: string) => find(n, "directory"),
    getFileHandle: (n: string) => find(n, "file"),
  } as unknown as FileSystemDirectoryHandle;
}

const session = (id: string, cwd: string) =>
  `${JSON.stringify({ type: "session", version: 3, id, cwd, timestamp: "2026-01-01T00:00:00.000Z" })}\n${JSON.stringify(msg("u1", null, user("hello")))}\n`;

describe("openPiFolder", () => {
  const settings = '{ "compaction": { "reserveTokens": 9000 } }';
  const models = '{ "providers": {} }';

  it("reads pi's settings from the agent folder and lists the sessions of its sessions/ folder", async () => {
    const opened = await openPiFolder(
      folder("agent", {
        "settings.json": settings,
        "models.json": models,
        "auth.json": "{}",
        sessions: { "--home-me-app--": { "2026_a.jsonl": session("a", "/home/me/app") } },
      }),
    );
    expect(opened.chosen).toBe("agent");
    expect(opened.name).toBe("agent");
    expect(opened.piSettings).toEqual({ settings, models });
    expect(opened.projects.map((p) => [p.cwd, p.sessions.map((s) => s.path)])).toEqual([
      ["/home/me/app", ["--home-me-app--/2026_a.jsonl"]],
    ]);
  });

  it("a sessions folder: its sessions, and no settings", async () => {
    const opened = await openPiFolder(
      folder("sessions", { "--home-me-app--": { "2026_a.jsonl": session("a", "/home/me/app") } }),
    );
    expect(opened.chosen).toBe("sessions");
    expect(opened.piSettings).toEqual({});
    expect(opened.projects).toHaveLength(1);
  });
});
