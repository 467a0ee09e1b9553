/**
 * The workspace the agent's tools run against, one per tab: the browser's origin-private file
 * system (OPFS, the default) or a local folder picked with the File System Access API (where the
 * browser has it; feature-detected). The choice is remembered in settings (a folder handle is
 * stored as is: IndexedDB keeps it); a remembered folder needs the person's permission again after
 * a reload, so until they grant it the OPFS workspace is used and `notice` says why.
 *
 * Observable like the runner: `getState()` + `subscribe()`; `version` is bumped whenever files may
 * have changed (after each tool call), so views re-read.
 *
 * Where the browser has no writable file streams (Safari before 26), OPFS writes go through a
 * worker's sync access handle (`makeWorker`); where the browser storage cannot keep files at all
 * (no OPFS, a private window), files live in memory and `memoryReason` says why. `where()` is the one
 * sentence the Files panel shows about where files live.
 */
import { type CutpointDb, getSetting, setSetting } from "../../db/index.ts";
import {
  createMemoryWorkspace,
  createSyncWriter,
  isFolderPickerSupported,
  openOpfsWorkspace,
  pickFolderWorkspace,
  type WorkerLike,
  type Workspace,
  workspaceFromFolderHandle,
} from "../../tools/index.ts";

export const WORKSPACE_SETTING_KEY = "agent.workspace";

type StoredChoice = { kind: "opfs" } | { kind: "folder"; handle: FileSystemDirectoryHandle };

export interface WorkspaceState {
  workspace: Workspace | null;
  /** Why the workspace is not what was chosen, or that a folder needs permission again. */
  notice: string | null;
  /** A remembered folder that waits for permission (reopen it from a click). */
  pendingFolder: string | null;
  folderSupported: boolean;
  /** Whether the browser storage (OPFS) can keep files here; null until it was tried. */
  browserStorageWorks: boolean | null;
  /** Why the files live in memory (the browser storage cannot keep them), else null. */
  memoryReason: string | null;
  version: number;
}

/** The one sentence about where the files of `state`'s workspace live. */
export function workspaceWhere(state: Pick<WorkspaceState, "workspace" | "memoryReason">): string {
  const ws = state.workspace;
  if (!ws) return "Opening the workspace…";
  if (ws.kind === "folder") return `Files live in the folder “${ws.name}” on this computer.`;
  if (ws.kind === "opfs")
    return "Files live in this browser's private storage for Cutpoint and stay after a reload.";
  const why = state.memoryReason ? `${state.memoryReason} ` : "";
  return `${why}Files live in memory only and are lost on reload.`;
}

/** The worker that writes OPFS files where the browser has no writable streams. */
const defaultWorker = (): WorkerLike =>
  new Worker(new URL("../../tools/opfs-write-worker.ts", import.meta.url), {
    type: "module",
  }) as unknown as WorkerLike;

export interface AgentWorkspaceDeps {
  /** Makes the OPFS write worker (tests pass their own; null: no worker). */
  makeWorker?: (() => WorkerLike) | null;
}

type Handle = FileSystemDirectoryHandle & {
  queryPermission?(d: { mode: "readwrite" }): Promise<PermissionState>;
};

export interface AgentWorkspaceService {
  getState(): WorkspaceState;
  subscribe(listener: () => void): () => void;
  /** Opens the remembered workspace (call once at start). */
  init(): Promise<void>;
  switchToBrowserStorage(): Promise<void>;
  /** Must run in a click handler. */
  pickFolder(): Promise<void>;
  /** Re-grants the remembered folder (click handler). */
  reopenFolder(): Promise<void>;
  /** Tell views that files may have changed. */
  touch(): void;
  /** The workspace to run tools against (opens OPFS on first use). */
  current(): Promise<Workspace>;
}

export function createAgentWorkspaceService(
  db: CutpointDb,
  deps: AgentWorkspaceDeps = {},
): AgentWorkspaceService {
  const listeners = new Set<() => void>();
  const makeWorker = deps.makeWorker === undefined ? defaultWorker : deps.makeWorker;
  const syncWriter = makeWorker && typeof Worker !== "undefined" ? createSyncWriter(makeWorker) : undefined;
  let state: WorkspaceState = {
    workspace: null,
    notice: null,
    pendingFolder: null,
    folderSupported: isFolderPickerSupported(),
    browserStorageWorks: null,
    memoryReason: null,
    version: 0,
  };
  let pendingHandle: FileSystemDirectoryHandle | null = null;
  let initialized: Promise<void> | null = null;

  const set = (patch: Partial<WorkspaceState>) => {
    state = { ...state, ...patch, version: state.version + 1 };
    for (const l of listeners) l();
  };

  async function opfs(notice: string | null): Promise<void> {
    const r = await openOpfsWorkspace("workspace", syncWriter);
    if (r.ok) set({ workspace: r.value, notice, browserStorageWorks: true, memoryReason: null });
    else {
      // Keep the files already written in memory when asked again.
      const kept = state.workspace?.kind === "memory" ? state.workspace : createMemoryWorkspace();
      set({ workspace: kept, notice, browserStorageWorks: false, memoryReason: r.error });
    }
  }

  async function init(): Promise<void> {
    const stored = await getSetting<StoredChoice>(db, WORKSPACE_SETTING_KEY).catch(() => undefined);
    if (stored?.kind === "folder" && stored.handle) {
      const h = stored.handle as Handle;
      const perm = h.queryPermission
        ? await h.queryPermission({ mode: "readwrite" }).catch(() => "denied")
        : "granted";
      if (perm === "granted") {
        set({ workspace: await workspaceFromFolderHandle(h), notice: null, pendingFolder: null });
        return;
      }
      pendingHandle = h;
      await opfs(null);
      set({ pendingFolder: h.name });
      return;
    }
    await opfs(null);
  }

  const service: AgentWorkspaceService = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    init() {
      initialized ??= init();
      return initialized;
    },
    async switchToBrowserStorage() {
      pendingHandle = null;
      await setSetting(db, WORKSPACE_SETTING_KEY, { kind: "opfs" });
      await opfs(null);
      set({ pendingFolder: null });
    },
    async pickFolder() {
      const r = await pickFolderWorkspace();
      if (!r.ok) {
        if (!r.cancelled) set({ notice: r.error });
        return;
      }
      pendingHandle = null;
      const saved = await setSetting(db, WORKSPACE_SETTING_KEY, { kind: "folder", handle: r.handle });
      set({
        workspace: r.value,
        pendingFolder: null,
        notice: saved.ok ? null : `The folder is open but will not be remembered: ${saved.error.message}`,
      });
    },
    async reopenFolder() {
      if (!pendingHandle) return;
      try {
        const ws = await workspaceFromFolderHandle(pendingHandle);
        pendingHandle = null;
        set({ workspace: ws, pendingFolder: null, notice: null });
      } catch (e) {
        set({ notice: `Could not reopen the folder: ${String((e as Error)?.message ?? e)}` });
      }
    },
    touch() {
      set({});
    },
    async current() {
      await service.init();
      if (!state.workspace) await opfs(null);
      return state.workspace!;
    },
  };
  return service;
}
