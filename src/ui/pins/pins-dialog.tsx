/**
 * The session's pinned instructions: see, edit and unpin each, and pin a new text. Each change
 * appends one system message (pi 1.6's prompt patch); the history keeps every earlier prompt.
 */
import { useState } from "react";
import { type Pin, pinTokens } from "../../core/agent/pins.ts";
import { Dialog } from "../common/dialog.tsx";
import { SafeText } from "../common/safe-text.tsx";
import { formatCount } from "../format.ts";
import { PinsInPi } from "./pins-in-pi.tsx";
import { usePins } from "./use-pins.ts";

export function PinsDialog({ sessionId, onClose }: { sessionId: string; onClose: () => void }) {
  const { ready, pins, change } = usePins(sessionId);
  const [draft, setDraft] = useState("");
  const [editing, setEditing] = useState<{ section: string; text: string } | null>(null);
  const total = pins.reduce((n, p) => n + pinTokens(p), 0);
  const add = async () => {
    if (await change({ kind: "add", text: draft })) setDraft("");
  };
  return (
    <Dialog open name="pins" title="Pinned instructions" onClose={onClose}>
      <p className="agent-faint">
        A pin is part of this session's system prompt (a pi 1.6 system message), so the model reads it word
        for word after every compaction. Changes are appended; the history keeps the earlier prompt.
      </p>
      {pins.length === 0 ? (
        <p className="pins-empty">
          Nothing is pinned yet. Pin a message from its row in the timeline, or below.
        </p>
      ) : (
        <>
          <p className="agent-faint" data-testid="pins-total">
            {pins.length} {pins.length === 1 ? "pin" : "pins"} · ≈ {formatCount(total)} tokens in every
            request
          </p>
          <ol className="pins-list" data-testid="pins-list">
            {pins.map((pin, i) => (
              <PinItem
                key={pin.section}
                pin={pin}
                index={i}
                editing={editing?.section === pin.section ? editing.text : null}
                onEdit={(text) => setEditing(text === null ? null : { section: pin.section, text })}
                onSave={async (text) => {
                  if (text === pin.text || (await change({ kind: "edit", section: pin.section, text })))
                    setEditing(null);
                }}
                onUnpin={() => void change({ kind: "remove", section: pin.section })}
              />
            ))}
          </ol>
        </>
      )}
      <label className="pins-add">
        <span>Pin a new instruction</span>
        <textarea
          className="agent-prompt-editor pins-editor"
          rows={4}
          value={draft}
          placeholder="e.g. Never edit files under vendor/. Run the tests before every commit."
          onChange={(e) => setDraft(e.target.value)}
        />
      </label>
      <div>
        <button
          type="button"
          className="btn primary"
          disabled={!ready || draft.trim() === ""}
          onClick={() => void add()}
        >
          Pin
        </button>
      </div>
      <PinsInPi />
    </Dialog>
  );
}

function PinItem(props: {
  pin: Pin;
  index: number;
  editing: string | null;
  onEdit: (text: string | null) => void;
  onSave: (text: string) => void;
  onUnpin: () => void;
}) {
  const { pin, index, editing } = props;
  return (
    <li className="pins-item" data-section={pin.section}>
      <div className="pins-item-head">
        <b>Pin {index + 1}</b>
        <span className="agent-faint">≈ {formatCount(pinTokens(pin))} tokens</span>
        <span className="pins-item-actions">
          {editing === null ? (
            <button type="button" className="btn small" onClick={() => props.onEdit(pin.text)}>
              Edit
            </button>
          ) : (
            <>
              <button type="button" className="btn small primary" onClick={() => props.onSave(editing)}>
                Save
              </button>
              <button type="button" className="btn small" onClick={() => props.onEdit(null)}>
                Cancel
              </button>
            </>
          )}
          <button type="button" className="btn small danger" onClick={props.onUnpin}>
            Unpin
          </button>
        </span>
      </div>
      {editing === null ? (
        <pre className="pins-text">
          <SafeText text={pin.text} />
        </pre>
      ) : (
        <textarea
          className="agent-prompt-editor pins-editor"
          aria-label={`Text of pin ${index + 1}`}
          rows={5}
          value={editing}
          onChange={(e) => props.onEdit(e.target.value)}
        />
      )}
    </li>
  );
}
