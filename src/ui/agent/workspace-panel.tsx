/**
 * The workspace browser: which workspace the tools use (browser storage or a picked folder), the
 * files in it, and the content of a clicked file (as text). Re-reads after every tool call.
 */
import { useEffect, useState, useSyncExternalStore } from "react";
import { agentWorkspace } from "../../services/agent/agent-instance.ts";
import { workspaceWhere } from "../../services/agent/agent-workspace.ts";
import { useAgentUiStore } from "../../store/agent-ui-store.ts";
import type { WalkEntry } from "../../tools/index.ts";
import { markInvisible } from "../common/invisible.ts";
import { SafeText } from "../common/safe-text.tsx";
import { formatBytes } from "../format.ts";

const MAX_FILES = 2_000;
const MAX_VIEW_CHARS = 200_000;

/** The workspace's state (the panel's code loads with the agent's: services/agent/agent-instance.ts). */
function useWorkspace() {
  useEffect(() => {
    void agentWorkspace.init();
  }, []);
  return useSyncExternalStore(agentWorkspace.subscribe, agentWorkspace.getState, agentWorkspace.getState);
}

type Listing = { files: WalkEntry[]; truncated: boolean } | { error: string };
type FileView = { path: string; text: string; size: number } | { path: string; error: string };

export function WorkspacePanel() {
  const open = useAgentUiStore((s) => s.filesOpen);
  const setOpen = useAgentUiStore((s) => s.setFilesOpen);
  const openFile = useAgentUiStore((s) => s.openFile);
  const setOpenFile = useAgentUiStore((s) => s.setOpenFile);
  const ws = useWorkspace();
  const [listing, setListing] = useState<Listing | null>(null);
  const [view, setView] = useState<FileView | null>(null);
  // Long lines scroll sideways (as in an editor) unless the person asks for them to wrap.
  const [wrap, setWrap] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `ws.version` signals file changes.
  useEffect(() => {
    if (!open || !ws.workspace) return;
    const workspace = ws.workspace;
    const controller = new AbortController();
    (async () => {
      const files: WalkEntry[] = [];
      let truncated = false;
      try {
        for await (const e of workspace.walk("", { signal: controller.signal })) {
          if (e.kind !== "file") continue;
          if (files.length >= MAX_FILES) {
            truncated = true;
            break;
          }
          files.push(e);
        }
        if (!controller.signal.aborted) setListing({ files, truncated });
      } catch (err) {
        if (!controller.signal.aborted) setListing({ error: String((err as Error)?.message ?? err) });
      }
    })();
    return () => controller.abort();
  }, [open, ws.workspace, ws.version]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `ws.version` signals file changes.
  useEffect(() => {
    if (!open || !ws.workspace || openFile === null) {
      setView(null);
      return;
    }
    let live = true;
    void ws.workspace.readFile(openFile).then((r) => {
      if (!live) return;
      setView(
        r.ok ? { path: openFile, text: r.value, size: r.value.length } : { path: openFile, error: r.error },
      );
    });
    return () => {
      live = false;
    };
  }, [open, ws.workspace, ws.version, openFile]);

  if (!open) return null;
  return (
    <aside className="agent-files" aria-label="Workspace files" data-testid="workspace-panel">
      <div className="agent-files-head">
        <strong>Workspace</strong>
        <span className="agent-faint" data-testid="workspace-name">
          <SafeText text={ws.workspace?.name ?? "opening…"} />
        </span>
        <button
          type="button"
          className="btn ghost small"
          onClick={() => setOpen(false)}
          aria-label="Close the workspace panel"
        >
          ✕
        </button>
      </div>
      <p
        className={ws.workspace?.kind === "memory" ? "agent-flag" : "agent-faint"}
        data-testid="workspace-where"
      >
        <SafeText text={workspaceWhere(ws)} />
      </p>
      <div className="agent-files-actions">
        {ws.workspace && ws.workspace.kind !== "opfs" && ws.browserStorageWorks === true && (
          <button
            type="button"
            className="btn small"
            onClick={() => void agentWorkspace.switchToBrowserStorage()}
          >
            Use browser storage
          </button>
        )}
        {ws.folderSupported && (
          <button type="button" className="btn small" onClick={() => void agentWorkspace.pickFolder()}>
            Open a local folder…
          </button>
        )}
        {ws.pendingFolder && (
          <button type="button" className="btn small" onClick={() => void agentWorkspace.reopenFolder()}>
            Reopen “<SafeText text={ws.pendingFolder} />”
          </button>
        )}
      </div>
      {ws.notice && <p className="agent-flag">{ws.notice}</p>}
      {ws.pendingFolder && (
        <p className="agent-faint">
          The folder “<SafeText text={ws.pendingFolder} />” needs your permission again; until then the tools
          use {ws.workspace?.kind === "memory" ? "memory" : "browser storage"}.
        </p>
      )}
      <div className="agent-files-body">
        <ul className="agent-file-list" aria-label="Files">
          {listing === null && <li className="agent-faint">Reading…</li>}
          {listing && "error" in listing && (
            <li className="agent-flag error">
              <SafeText text={listing.error} />
            </li>
          )}
          {listing && "files" in listing && listing.files.length === 0 && (
            <li className="agent-faint">No files yet. The agent's write tool creates them here.</li>
          )}
          {listing &&
            "files" in listing &&
            listing.files.map((f) => (
              <li key={f.path}>
                <button
                  type="button"
                  className="agent-file"
                  aria-current={openFile === f.path}
                  onClick={() => setOpenFile(openFile === f.path ? null : f.path)}
                >
                  <SafeText text={f.path} />
                </button>
              </li>
            ))}
          {listing && "files" in listing && listing.truncated && (
            <li className="agent-faint">Only the first {MAX_FILES.toLocaleString()} files are listed.</li>
          )}
        </ul>
        {view && (
          <section
            className="agent-file-view"
            aria-label={`Content of ${markInvisible(view.path)}`}
            data-testid="file-view"
          >
            <div className="agent-file-view-head">
              <code>
                <SafeText text={view.path} />
              </code>
              {"text" in view && (
                <span className="agent-file-view-tools">
                  <label className="agent-faint">
                    <input type="checkbox" checked={wrap} onChange={(e) => setWrap(e.target.checked)} /> Wrap
                    lines
                  </label>
                  <span className="agent-faint">{formatBytes(new Blob([view.text]).size)}</span>
                </span>
              )}
            </div>
            {"error" in view ? (
              <p className="agent-flag error">
                <SafeText text={view.error} />
              </p>
            ) : (
              <pre data-testid="file-content" className={wrap ? "wrap" : undefined}>
                <SafeText
                  text={
                    view.text.length > MAX_VIEW_CHARS ? `${view.text.slice(0, MAX_VIEW_CHARS)}\n…` : view.text
                  }
                />
              </pre>
            )}
          </section>
        )}
      </div>
    </aside>
  );
}
