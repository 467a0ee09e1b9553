/**
 * The app shell: sidebar (sessions), main area (session view, an import's preview, or welcome), dialogs, toasts,
 * import progress, the offline notice and update prompt, and the window-wide drop zone. See src/ui/README.md for the mount points.
 */
import { useUiStore } from "../store/ui-store.ts";
import { KeyUnlockDialog } from "./agent/key-unlock-dialog.tsx";
import { ErrorBoundary } from "./common/error-boundary.tsx";
import { Toasts } from "./common/toasts.tsx";
import { useHashRoute } from "./hooks/use-hash-route.ts";
import { ImportDialog } from "./import/import-dialog.tsx";
import { usePreviewedImport } from "./import/import-jobs.ts";
import { ImportPreview } from "./import/import-preview.tsx";
import { ImportProgress } from "./import/import-progress.tsx";
import { SessionView } from "./session/session-view.tsx";
import { Welcome } from "./session/welcome.tsx";
import { OfflineNotice, UpdatePrompt } from "./shell/app-status.tsx";
import { DropZone } from "./shell/drop-zone.tsx";
import { MenuToggle } from "./shell/menu-toggle.tsx";
import { SettingsButton } from "./shell/settings-button.tsx";
import { SettingsDialog } from "./shell/settings-dialog.tsx";
import { Sidebar } from "./sidebar/sidebar.tsx";

function NoSessionTopBar() {
  return (
    <header className="topbar">
      <MenuToggle />
      <div className="topbar-slot">
        <OfflineNotice />
      </div>
      <div className="topbar-actions">
        <SettingsButton />
      </div>
    </header>
  );
}

export function App() {
  useHashRoute();
  const selected = useUiStore((s) => s.selectedSessionId);
  const sidebarOpen = useUiStore((s) => s.sidebarOpen);
  const setSidebarOpen = useUiStore((s) => s.setSidebarOpen);
  const closed = useUiStore((s) => s.dbClosedReason);
  const previewed = usePreviewedImport();
  return (
    <div className="app" data-sidebar-open={sidebarOpen}>
      <ErrorBoundary name="the session list">
        <Sidebar />
      </ErrorBoundary>
      <button
        type="button"
        className="backdrop"
        aria-label="Close the session list"
        tabIndex={-1}
        onClick={() => setSidebarOpen(false)}
      />
      <main className="main">
        {previewed !== undefined ? (
          <ErrorBoundary key={`import-${previewed}`} name="the import preview">
            <ImportPreview jobId={previewed} />
          </ErrorBoundary>
        ) : selected ? (
          <ErrorBoundary key={selected} name="this session">
            <SessionView sessionId={selected} />
          </ErrorBoundary>
        ) : (
          <>
            <NoSessionTopBar />
            <Welcome />
            <footer />
          </>
        )}
        {/* Fixed over the session list (wide), the row under the top bar (narrow): toasts.css. */}
        <Toasts />
      </main>
      {closed && (
        <div
          className="banner"
          role="alert"
          style={{ position: "fixed", top: 0, left: 0, right: 0, zIndex: 70 }}
        >
          {closed}
          <button type="button" className="btn" onClick={() => location.reload()}>
            Reload
          </button>
        </div>
      )}
      <ErrorBoundary name="the import dialog">
        <ImportDialog />
      </ErrorBoundary>
      <ErrorBoundary name="the settings">
        <SettingsDialog />
      </ErrorBoundary>
      <ImportProgress />
      <KeyUnlockDialog />
      <UpdatePrompt />
      <DropZone />
    </div>
  );
}
