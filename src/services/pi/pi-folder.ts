/**
 * pi's sessions folder (~/.pi/agent/sessions), opened through the File System Access API: list
 * its sessions by project, follow one file while pi appends to it (new entries stored as they
 * come, the session refused to every other writer), and save a session back as a new file there.
 * Cutpoint never writes into a file it follows.
 */
import {
  newEntries,
  type SessionFileSummary,
  summarizeSessionText,
} from "../../core/session/follow-lines.ts";
import {
  appendEntries,
  type CutpointDb,
  FOLLOW_WRITER,
  getSession,
  setFollowedFrom,
} from "../../db/index.ts";
import { exportSessionFile } from "../session/sessions-service.ts";

/** Files bigger than this are listed from their first bytes only (header and first message). */
export const LIST_READ_MAX = 32 * 1024 * 1024;
const HEAD_BYTES = 256 * 1024;

type Dir = FileSystemDirectoryHandle & { values(): AsyncIterable<FileSystemHandle> };

/** One session file of the folder. */
export interface PiFolderSession {
  /** Path inside the chosen folder, e.g. `--home-me-app--/2026-…_<id>.jsonl`. */
  path: string;
  fileName: string;
  size: number;
  lastModified: number;
  summary: SessionFileSummary;
  /** False when only the file's first bytes were read (a big file): counts are unknown. */
  counted: boolean;
  handle: FileSystemFileHandle;
}

/** The sessions of one project folder (pi names it after the project's working directory). */
export interface PiFolderProject {
  dir: string;
  /** The working directory the sessions' headers give (the folder name when none does). */
  cwd: string;
  sessions: PiFolderSession[];
  handle: FileSystemDirectoryHandle;
}

export interface PiFolderListing {
  name: string;
  projects: PiFolderProject[];
}

/** Whether this browser can open a folder (Chromium's File System Access API). */
export function canOpenFolders(w: unknown = globalThis): boolean {
  return typeof (w as { showDirectoryPicker?: unknown }).showDirectoryPicker === "function";
}

async function summarize(path: string, handle: FileSystemFileHandle): Promise<PiFolderSession> {
  const file = await handle.getFile();
  const counted = file.size <= LIST_READ_MAX;
  const text = await (counted ? file : file.slice(0, HEAD_BYTES)).text();
  // A cut-off last line (big file, or pi mid-write) is simply not counted.
  const summary = summarizeSessionText(text);
  return {
    path,
    fileName: handle.name,
    size: file.size,
    lastModified: file.lastModified,
    summary,
    counted,
    handle,
  };
}

async function sessionsIn(dir: Dir, prefix: string): Promise<PiFolderSession[]> {
  const out: PiFolderSession[] = [];
  for await (const h of dir.values())
    if (h.kind === "file" && h.name.endsWith(".jsonl"))
      out.push(await summarize(prefix + h.name, h as FileSystemFileHandle));
  return out.sort((a, b) => b.lastModified - a.lastModified);
}

/** Lists the folder: its project folders' sessions (and session files lying in the folder itself). */
export async function listPiFolder(folder: FileSystemDirectoryHandle): Promise<PiFolderListing> {
  const root = folder as Dir;
  const projects: PiFolderProject[] = [];
  const here = await sessionsIn(root, "");
  if (here.length > 0) projects.push(project(folder.name, here, folder));
  for await (const h of root.values()) {
    if (h.kind !== "directory") continue;
    const sessions = await sessionsIn(h as Dir, `${h.name}/`);
    if (sessions.length > 0) projects.push(project(h.name, sessions, h as FileSystemDirectoryHandle));
  }
  projects.sort((a, b) => (b.sessions[0]?.lastModified ?? 0) - (a.sessions[0]?.lastModified ?? 0));
  return { name: folder.name, projects };
}

function project(
  dir: string,
  sessions: PiFolderSession[],
  handle: FileSystemDirectoryHandle,
): PiFolderProject {
  const cwd = sessions.find((s) => s.summary.cwd)?.summary.cwd ?? dir;
  return { dir, cwd, sessions, handle };
}

/** What the follow of one file has seen; `problem` ends it. */
export interface FollowState {
  path: string;
  /** Entries appended to the session since the follow began. */
  appended: number;
  /** When the file last grew (ms since epoch), or when the follow began. */
  lastChange: number;
  /** Lines of the file that could not be taken (not JSON, not an entry). */
  skipped: number;
  problem?: string;
}

export interface Follow {
  stop(): void;
}

const NEWLINE = 10;

/**
 * Follows `handle` from byte `from` (the size the import read): every `intervalMs`, the complete
 * lines pi appended since are parsed and their new entries appended to the session. A file that
 * got shorter was rewritten: the follow stops and says so.
 */
export function followFile(
  db: CutpointDb,
  sessionId: string,
  path: string,
  handle: FileSystemFileHandle,
  from: number,
  onState: (state: FollowState) => void,
  { intervalMs = 1000, now = () => Date.now() }: { intervalMs?: number; now?: () => number } = {},
): Follow {
  let offset = from;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const state: FollowState = { path, appended: 0, lastChange: now(), skipped: 0 };
  const known = new Set<string>();
  const end = (problem: string) => {
    stopped = true;
    onState({ ...state, problem });
  };
  const tick = async () => {
    if (stopped) return;
    try {
      const file = await handle.getFile();
      if (file.size < offset)
        return end("The file got shorter: it was rewritten. Import it again to see it as it is now.");
      if (file.size > offset) {
        const bytes = new Uint8Array(await file.slice(offset).arrayBuffer());
        const last = bytes.lastIndexOf(NEWLINE);
        if (last >= 0) {
          const text = new TextDecoder().decode(bytes.subarray(0, last + 1));
          offset += last + 1;
          const lines = text.split("\n").filter((l) => l.trim() !== "");
          const { entries, problems } = newEntries(lines, (id) => known.has(id));
          state.skipped += problems.length;
          if (entries.length > 0) {
            const r = await appendEntries(db, sessionId, entries, now(), { run: FOLLOW_WRITER });
            if (!r.ok) return end(`New entries could not be stored: ${r.error.message}`);
            for (const e of entries) known.add(e.id);
            state.appended += entries.length;
          }
          state.lastChange = now();
          if (!stopped) onState({ ...state });
        }
      }
    } catch (e) {
      return end(
        `The file can no longer be read (${e instanceof Error ? e.name : "error"}): open the folder again.`,
      );
    }
    if (!stopped) timer = setTimeout(tick, intervalMs);
  };
  onState({ ...state });
  timer = setTimeout(tick, intervalMs);
  return {
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}

/** Marks the session as followed from `path` (every other write refused until unmarked). */
export function markFollowed(db: CutpointDb, sessionId: string, path: string | undefined) {
  return setFollowedFrom(db, sessionId, path);
}

/** The file a session follows, if it is marked so. */
export async function followedFrom(db: CutpointDb, sessionId: string): Promise<string | undefined> {
  return (await getSession(db, sessionId))?.followedFrom;
}

/**
 * Writes the session as a new file in a project folder of pi's (never over an existing file), named
 * as pi names its files, so pi can resume it. Returns the file name.
 */
export async function saveIntoFolder(
  db: CutpointDb,
  sessionId: string,
  dir: FileSystemDirectoryHandle,
): Promise<{ ok: true; fileName: string } | { ok: false; message: string }> {
  const r = await exportSessionFile(db, sessionId);
  if (!r.ok) return { ok: false, message: r.error.message };
  try {
    const taken = await dir.getFileHandle(r.value.fileName).then(
      () => true,
      () => false,
    );
    if (taken)
      return { ok: false, message: `${r.value.fileName} is already in that folder: nothing was written.` };
    const handle = await dir.getFileHandle(r.value.fileName, { create: true });
    const writable = await handle.createWritable();
    await writable.write(r.value.blob);
    await writable.close();
    return { ok: true, fileName: r.value.fileName };
  } catch (e) {
    const name = e instanceof Error ? e.name : "";
    return {
      ok: false,
      message:
        name === "NotAllowedError"
          ? "The browser was not allowed to write into that folder: nothing was written."
          : `The file could not be written (${name || "error"}).`,
    };
  }
}
