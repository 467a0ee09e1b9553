/** pi's settings.json and models.json: choose them, read what they would change and where from, then apply or cancel. */
import { useEffect, useId, useState } from "react";
import type { PiImportFiles, PiImportPlan } from "../../services/pi/pi-settings-import.ts";
import { piSettings } from "../../services/pi/pi-settings-instance.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { Dialog } from "../common/dialog.tsx";

/** Which of pi's files a chosen file is: by its name, else by what it holds. */
function kindOf(name: string, text: string): keyof PiImportFiles {
  if (/models\.json$/i.test(name)) return "models";
  if (/settings\.json$/i.test(name)) return "settings";
  return /"providers"\s*:/.test(text) ? "models" : "settings";
}

/** pi's settings files read from the folder the person chose (pi-agent-folder.ts). */
export interface SettingsFromFolder {
  name: string;
  files: PiImportFiles;
}

export function PiSettingsDialog({
  onClose,
  fromFolder,
}: {
  onClose: () => void;
  /** When given, the review opens on these files; the file picker can still replace them. */
  fromFolder?: SettingsFromFolder;
}) {
  const inputId = useId();
  const [files, setFiles] = useState<string[]>([]);
  const [plan, setPlan] = useState<PiImportPlan | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!fromFolder) return;
    let live = true;
    const names = (Object.keys(fromFolder.files) as (keyof PiImportFiles)[]).map(
      (k) => `${k}.json (from ${fromFolder.name})`,
    );
    void piSettings.preview(fromFolder.files).then((r) => {
      if (!live) return;
      setFiles(names);
      if (r.ok) setPlan(r.value);
      else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [fromFolder]);

  const choose = async (list: FileList | null) => {
    setPlan(null);
    setError(null);
    if (!list || list.length === 0) return;
    const chosen: PiImportFiles = {};
    const names: string[] = [];
    for (const file of [...list]) {
      const text = await file.text();
      const kind = kindOf(file.name, text);
      if (chosen[kind] !== undefined) {
        setError(`Two files look like pi's ${kind}.json: choose one of each at most.`);
        return;
      }
      chosen[kind] = text;
      names.push(`${file.name} (as ${kind}.json)`);
    }
    setFiles(names);
    const r = await piSettings.preview(chosen);
    if (r.ok) setPlan(r.value);
    else setError(r.error);
  };

  const apply = async () => {
    if (!plan) return;
    setBusy(true);
    const r = await piSettings.apply(plan);
    setBusy(false);
    if (!r.ok) {
      setError(`Nothing was changed: the settings could not be saved (${r.error.message}).`);
      return;
    }
    useUiStore.getState().pushToast({
      kind: "success",
      message: `pi's settings applied: ${plan.changes.length} change${plan.changes.length === 1 ? "" : "s"}.`,
    });
    onClose();
  };

  return (
    <Dialog
      open
      title="pi's settings"
      onClose={onClose}
      name="pi-settings"
      actions={
        <>
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="btn primary"
            disabled={!plan || plan.changes.length === 0 || busy}
            onClick={() => void apply()}
          >
            Apply
          </button>
        </>
      }
    >
      <p>
        pi keeps its settings in <code>~/.pi/agent/settings.json</code> (compaction on or off, reserve and
        keep-recent tokens, per model) and its models in <code>~/.pi/agent/models.json</code> (context windows
        and output limits). Choose one or both: the changes are listed here first, and nothing changes before
        Apply.
      </p>
      <label htmlFor={inputId} className="field">
        {fromFolder ? "Or choose other files" : "pi's settings.json and/or models.json"}
        <input
          id={inputId}
          type="file"
          accept=".json,application/json"
          multiple
          data-autofocus={fromFolder ? undefined : true}
          onChange={(e) => void choose(e.currentTarget.files)}
        />
      </label>
      {files.length > 0 && <p className="muted">Read: {files.join(", ")}</p>}
      {error && (
        <p role="alert" className="error-text" data-testid="pi-settings-error">
          {error}
        </p>
      )}
      {plan && plan.changes.length === 0 && (
        <p data-testid="pi-settings-none">
          These files change nothing: Cutpoint already uses the same figures.
        </p>
      )}
      {plan && plan.changes.length > 0 && (
        <table className="pi-settings-changes" data-testid="pi-settings-changes">
          <thead>
            <tr>
              <th scope="col">Setting</th>
              <th scope="col">Now</th>
              <th scope="col">From pi</th>
              <th scope="col">Where in pi's files</th>
            </tr>
          </thead>
          <tbody>
            {plan.changes.map((c) => (
              <tr key={c.what}>
                <td>{c.what}</td>
                <td>{c.before}</td>
                <td>{c.after}</td>
                <td>
                  <code>{c.source}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {plan && plan.problems.length > 0 && (
        <div data-testid="pi-settings-problems">
          <p>Not taken (pi would refuse these values, or they clash):</p>
          <ul>
            {plan.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
    </Dialog>
  );
}
