/** The pi sessions folder: choose it, see its sessions by project, open one and follow it while pi writes. */
import { useMemo, useState } from "react";
import { openPiFolder, type PiFolderOpened } from "../../services/pi/pi-agent-folder.ts";
import { canOpenFolders, type PiFolderSession } from "../../services/pi/pi-folder.ts";
import { piFolder } from "../../services/pi/pi-folder-instance.ts";
import { usePiFollowStore } from "../../store/pi-follow-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { Dialog } from "../common/dialog.tsx";
import { formatBytes, formatCount, formatDate } from "../format.ts";
import { useImportFile } from "../import/use-import.ts";
import { PiSettingsDialog } from "./pi-settings-dialog.tsx";

type Picker = (options: { id?: string; mode?: "read" | "readwrite" }) => Promise<FileSystemDirectoryHandle>;

const title = (s: PiFolderSession) => s.summary.name ?? s.summary.firstMessage ?? s.fileName;

/** Opens the folder picker and lists what it holds; undefined when the person cancelled. */
async function chooseFolder(): Promise<FileSystemDirectoryHandle | undefined> {
  const pick = (globalThis as unknown as { showDirectoryPicker: Picker }).showDirectoryPicker;
  try {
    return await pick({ id: "pi-sessions", mode: "readwrite" });
  } catch (e) {
    if (e instanceof Error && e.name === "AbortError") return undefined;
    throw e;
  }
}

export function PiFolderDialog({ onClose }: { onClose: () => void }) {
  const listing = usePiFollowStore((s) => s.listing);
  const setListing = usePiFollowStore((s) => s.setListing);
  const importFile = useImportFile();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The settings dialog, open over the file picker or over the settings files of the chosen folder. */
  const [settingsOpen, setSettingsOpen] = useState<"picker" | "folder" | null>(null);
  const supported = canOpenFolders();
  const fromFolder = useMemo(
    () =>
      settingsOpen === "folder" && listing ? { name: listing.name, files: listing.piSettings } : undefined,
    [settingsOpen, listing],
  );

  const open = async () => {
    setError(null);
    try {
      const dir = await chooseFolder();
      if (!dir) return;
      setBusy("Reading the folder…");
      setListing(await openPiFolder(dir));
    } catch (e) {
      setError(`The folder could not be read (${e instanceof Error ? e.name : "error"}).`);
    } finally {
      setBusy(null);
    }
  };

  const follow = async (s: PiFolderSession, dir: FileSystemDirectoryHandle) => {
    setBusy(`Opening ${title(s)}…`);
    try {
      const file = await s.handle.getFile();
      const id = await importFile(file);
      if (!id) return;
      const store = usePiFollowStore.getState();
      const r = await piFolder.follow(id, s.path, s.handle, file.size, (state) => store.update(id, state));
      if (!r.ok) {
        useUiStore.getState().pushToast({ kind: "error", message: r.error.message });
        return;
      }
      store.started(id, {
        state: { path: s.path, appended: 0, lastChange: Date.now(), skipped: 0 },
        stop: r.value.stop,
        dir,
      });
      onClose();
    } finally {
      setBusy(null);
    }
  };

  if (settingsOpen) return <PiSettingsDialog onClose={onClose} fromFolder={fromFolder} />;
  return (
    <Dialog open title="pi's folder" onClose={onClose} name="pi-folder">
      <p className="muted">
        pi's own windows and compaction settings (settings.json, models.json):{" "}
        <button type="button" className="btn" onClick={() => setSettingsOpen("picker")}>
          Import pi's settings…
        </button>
      </p>
      {!supported ? (
        <p>
          This browser cannot open a folder (Firefox and Safari lack the File System Access API). Import the
          session files with Import instead: pi keeps them in <code>~/.pi/agent/sessions/</code>, one folder
          per project.
        </p>
      ) : (
        <>
          <p className="muted">
            Choose pi's folder <code>~/.pi/agent</code> (its settings and its sessions) or its sessions folder{" "}
            <code>~/.pi/agent/sessions/</code> (one folder per project). Open a session to follow it while pi
            writes it: new entries appear here. Cutpoint never writes into pi's files.
          </p>
          <p>
            <button
              type="button"
              className="btn primary"
              onClick={() => void open()}
              disabled={busy !== null}
              data-autofocus
            >
              {listing ? "Choose another folder…" : "Choose the folder…"}
            </button>
          </p>
        </>
      )}
      {busy && <p role="status">{busy}</p>}
      {error && <p role="alert">{error}</p>}
      {listing && <FolderSettings listing={listing} onReview={() => setSettingsOpen("folder")} />}
      {listing && listing.projects.length === 0 && <p>No session files (.jsonl) in {listing.name}.</p>}
      {listing?.projects.map((p) => (
        <section key={p.dir} className="pi-project" aria-label={`Project ${p.cwd}`}>
          <h3 className="pi-project-cwd">{p.cwd}</h3>
          <ul className="pi-sessions">
            {p.sessions.map((s) => (
              <li key={s.path} className="pi-session">
                <span className="pi-session-title">{title(s)}</span>
                <span className="pi-session-facts muted">
                  {s.counted
                    ? `${formatCount(s.summary.entries)} entries · ${formatCount(s.summary.compactions)} compaction${s.summary.compactions === 1 ? "" : "s"}`
                    : "big file: counted when opened"}
                  {" · "}
                  {formatBytes(s.size)} · changed {formatDate(s.lastModified)}
                </span>
                <button
                  type="button"
                  className="btn"
                  disabled={busy !== null}
                  onClick={() => void follow(s, p.handle)}
                  aria-label={`Open and follow ${title(s)}`}
                >
                  Open and follow
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </Dialog>
  );
}

/** What the chosen folder says about pi's settings: found (review them), none, or in the folder above. */
function FolderSettings({ listing, onReview }: { listing: PiFolderOpened; onReview: () => void }) {
  const found = (["settings", "models"] as const).filter((k) => listing.piSettings[k] !== undefined);
  if (listing.chosen === "sessions")
    return (
      <p className="muted" data-testid="pi-folder-settings">
        pi's settings.json and models.json are in the folder above this one (<code>~/.pi/agent</code>), which
        the browser does not open from here: choose <code>~/.pi/agent</code> to bring them in too, or use
        Import pi's settings….
      </p>
    );
  if (found.length === 0)
    return (
      <p className="muted" data-testid="pi-folder-settings">
        No settings.json or models.json in {listing.name}: pi runs with its defaults.
      </p>
    );
  return (
    <p data-testid="pi-folder-settings">
      The folder <code>{listing.name}</code> holds pi's {found.map((k) => `${k}.json`).join(" and ")}.{" "}
      <button type="button" className="btn" onClick={onReview}>
        Review pi's settings from this folder…
      </button>
    </p>
  );
}
