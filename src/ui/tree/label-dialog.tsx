/** Labels an entry (a `label` entry); an empty label or "Clear" removes it. */
import { useState } from "react";
import type { TreeData } from "../../core/session/session-tree.ts";
import { appTree } from "../../services/tree/tree-instance.ts";
import { useTreeStore } from "../../store/tree-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { Dialog } from "../common/dialog.tsx";
import { HiddenCharsNote, SafeText } from "../common/safe-text.tsx";
import { describeEntry } from "../timeline/entry-kind.ts";

export function LabelDialog({ sessionId, data }: { sessionId: string; data: TreeData }) {
  const labelling = useTreeStore((s) => s.labelling);
  if (labelling === null || labelling.sessionId !== sessionId) return null;
  return <LabelBody key={labelling.entryId} sessionId={sessionId} data={data} entryId={labelling.entryId} />;
}

function LabelBody({ sessionId, data, entryId }: { sessionId: string; data: TreeData; entryId: string }) {
  const endLabel = useTreeStore((s) => s.endLabel);
  const current = data.labels.get(entryId) ?? "";
  const [text, setText] = useState(current);
  const [saving, setSaving] = useState(false);
  const entry = data.index.byId.get(entryId);

  const save = async (value: string) => {
    setSaving(true);
    const r = await appTree.setLabel(sessionId, entryId, value, { taken: data.index.byId });
    setSaving(false);
    if (!r.ok) {
      useUiStore.getState().pushToast({ kind: "error", message: r.error.message });
      return;
    }
    endLabel();
  };

  return (
    <Dialog
      open
      title={current ? "Change the label" : "Label this entry"}
      name="label"
      onClose={endLabel}
      actions={
        <>
          <button type="button" className="btn" onClick={endLabel}>
            Cancel
          </button>
          {current && (
            <button type="button" className="btn danger" onClick={() => void save("")} disabled={saving}>
              Clear label
            </button>
          )}
          <button type="submit" form="label-form" className="btn primary" disabled={saving}>
            Save
          </button>
        </>
      }
    >
      {entry && (
        <p className="nav-note">
          <SafeText text={describeEntry(entry).excerpt.slice(0, 120)} />
        </p>
      )}
      <form
        id="label-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save(text);
        }}
      >
        <label className="nav-focus">
          Label
          <input autoFocus value={text} onChange={(e) => setText(e.target.value)} maxLength={200} />
          <HiddenCharsNote value={text} />
        </label>
      </form>
    </Dialog>
  );
}
