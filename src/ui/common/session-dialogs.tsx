/** Rename and delete-confirmation dialogs. */
import { useState } from "react";
import { UNDO_WINDOW_MS } from "../../services/session/sessions-service.ts";
import { Dialog } from "./dialog.tsx";
import { HiddenCharsNote, SafeText } from "./safe-text.tsx";

export function RenameDialog(props: {
  /** The session's name (a session_info entry), "" when it has none. */
  initial: string;
  /** What the list shows for it meanwhile (its first message): the field's placeholder. */
  shownAs?: string;
  onSave: (name: string) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState(props.initial);
  const save = () => {
    // The same name (spaces aside) is no rename: renameSession appends nothing then.
    props.onSave(name);
    props.onClose();
  };
  return (
    <Dialog
      open
      name="rename"
      title="Rename session"
      onClose={props.onClose}
      actions={
        <>
          <button type="button" className="btn" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" form="rename-form" className="btn primary">
            Save
          </button>
        </>
      }
    >
      <form
        id="rename-form"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <label className="field">
          <span>Name (saved as a session_info entry; empty clears it)</span>
          <input
            autoFocus
            value={name}
            placeholder={props.initial === "" ? props.shownAs : undefined}
            onChange={(e) => setName(e.target.value)}
            maxLength={300}
          />
          <HiddenCharsNote value={name} />
        </label>
      </form>
    </Dialog>
  );
}

export function ConfirmDeleteDialog(props: { label: string; onConfirm: () => void; onClose: () => void }) {
  return (
    <Dialog
      open
      name="delete"
      title="Delete this session?"
      onClose={props.onClose}
      actions={
        <>
          <button type="button" className="btn" autoFocus onClick={props.onClose}>
            Keep it
          </button>
          <button
            type="button"
            className="btn danger solid"
            onClick={() => {
              props.onConfirm();
              props.onClose();
            }}
          >
            Delete
          </button>
        </>
      }
    >
      <p>
        “<SafeText text={props.label.slice(0, 120)} />” and all its entries will be removed from this browser.
        You can undo for {Math.round(UNDO_WINDOW_MS / 1000)} seconds, also after a reload.
      </p>
    </Dialog>
  );
}
