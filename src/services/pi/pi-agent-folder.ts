// The folder a person chose for pi: its agent folder (~/.pi/agent: settings.json, models.json, sessions/) or its sessions folder; where the sessions are and pi's settings files when it holds them.
import { listPiFolder, type PiFolderListing } from "./pi-folder.ts";
import type { PiImportFiles } from "./pi-settings-import.ts";

/** pi's two settings files, by the name they have in its agent folder. */
export const PI_SETTINGS_FILES = { settings: "settings.json", models: "models.json" } as const;

export interface FolderTop {
  /** Names of the files right in the folder. */
  files: readonly string[];
  /** Names of the folders right in it. */
  dirs: readonly string[];
}

export interface PiFolderLayout {
  /** "agent": pi's agent folder (sessions in its `sessions/` folder); "sessions": the sessions folder itself. */
  chosen: "agent" | "sessions";
  /** The subfolder holding the sessions, or null for the chosen folder itself. */
  sessionsDir: "sessions" | null;
  /** pi's settings files the folder holds (file names, as pi names them). */
  settingsFiles: (keyof PiImportFiles)[];
}

/**
 * What a chosen folder is, from the names at its top. pi's agent folder holds `sessions/` and
 * its settings files; its sessions folder holds one folder per project, which pi names after the
 * project's path (`--home-me-app--`), never `sessions`.
 */
export function piFolderLayout(top: FolderTop): PiFolderLayout {
  const settingsFiles = (Object.keys(PI_SETTINGS_FILES) as (keyof PiImportFiles)[]).filter((k) =>
    top.files.includes(PI_SETTINGS_FILES[k]),
  );
  const hasSessions = top.dirs.includes("sessions");
  return {
    chosen: hasSessions || settingsFiles.length > 0 ? "agent" : "sessions",
    sessionsDir: hasSessions ? "sessions" : null,
    settingsFiles,
  };
}

/** A chosen folder as the pi folder dialog shows it: its sessions, and pi's settings when it holds them. */
export interface PiFolderOpened extends PiFolderListing {
  chosen: PiFolderLayout["chosen"];
  /** The texts of pi's settings files found in the folder (empty when none). */
  piSettings: PiImportFiles;
}

type Dir = FileSystemDirectoryHandle & { values(): AsyncIterable<FileSystemHandle> };

/** Reads what the chosen folder is, lists its sessions and reads pi's settings files from it. */
export async function openPiFolder(folder: FileSystemDirectoryHandle): Promise<PiFolderOpened> {
  const files: string[] = [];
  const dirs: string[] = [];
  for await (const h of (folder as Dir).values()) (h.kind === "file" ? files : dirs).push(h.name);
  const layout = piFolderLayout({ files, dirs });
  const sessions = layout.sessionsDir ? await folder.getDirectoryHandle(layout.sessionsDir) : folder;
  const piSettings: PiImportFiles = {};
  for (const kind of layout.settingsFiles) {
    const handle = await folder.getFileHandle(PI_SETTINGS_FILES[kind]);
    piSettings[kind] = await (await handle.getFile()).text();
  }
  const listing = await listPiFolder(sessions);
  return { ...listing, name: folder.name, chosen: layout.chosen, piSettings };
}
