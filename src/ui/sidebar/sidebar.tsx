/** The left column: brand, New / Import / Example / pi folder, the session list, the sync line, the storage status. */
import { lazy, Suspense, useState } from "react";
import { useUiStore } from "../../store/ui-store.ts";
import { useSessionActions } from "../hooks/use-session-actions.ts";
import { ImportButton } from "../import/import-button.tsx";
import { SyncFooter } from "../sync/sync-footer.tsx";
import { SessionList } from "./session-list.tsx";
import { StorageStatus } from "./storage-status.tsx";

const PiFolderDialog = lazy(() =>
  import("../pi-folder/pi-folder-dialog.tsx").then((m) => ({ default: m.PiFolderDialog })),
);

export function Sidebar() {
  const actions = useSessionActions();
  const setOpen = useUiStore((s) => s.setSidebarOpen);
  const [piFolderOpen, setPiFolderOpen] = useState(false);
  return (
    <aside className="sidebar" id="sidebar" aria-label="Sessions sidebar">
      <div className="sidebar-head">
        <span className="brand">
          <span className="brand-mark" aria-hidden="true" /> Cutpoint
        </span>
        <button
          type="button"
          className="btn ghost icon menu-toggle"
          aria-label="Close the session list"
          onClick={() => setOpen(false)}
        >
          ✕
        </button>
      </div>
      <div className="sidebar-actions">
        <button type="button" className="btn primary" onClick={() => void actions.newSession()}>
          + New
        </button>
        <ImportButton />
        <button type="button" className="btn" onClick={() => void actions.example()}>
          Example session
        </button>
        <button type="button" className="btn" onClick={() => setPiFolderOpen(true)}>
          pi folder…
        </button>
        <button
          type="button"
          className="btn"
          title="An example past 20,000 tokens, with its compaction review open"
          onClick={() => void actions.example("compaction")}
        >
          Compaction example
        </button>
      </div>
      {piFolderOpen && (
        <Suspense fallback={null}>
          <PiFolderDialog onClose={() => setPiFolderOpen(false)} />
        </Suspense>
      )}
      <SessionList />
      <SyncFooter />
      <StorageStatus />
    </aside>
  );
}
