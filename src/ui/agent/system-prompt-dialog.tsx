/** Shows and edits the session's system prompt (stored per session in settings). */
import { useEffect, useState } from "react";
import { db } from "../../db/instance.ts";
import { DEFAULT_SYSTEM_PROMPT, setSystemPrompt } from "../../services/agent-settings.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { Dialog } from "../common/dialog.tsx";
import { useSystemPrompt } from "./use-agent.ts";

export function SystemPromptDialog({ sessionId, onClose }: { sessionId: string; onClose: () => void }) {
  const stored = useSystemPrompt(sessionId);
  const toast = useUiStore((s) => s.pushToast);
  const [draft, setDraft] = useState<string | null>(null);
  useEffect(() => {
    if (stored !== undefined && draft === null) setDraft(stored);
  }, [stored, draft]);

  const save = async () => {
    const r = await setSystemPrompt(db, sessionId, draft ?? "");
    if (!r.ok) toast({ kind: "error", message: r.error.message });
    else onClose();
  };
  return (
    <Dialog
      open
      name="system-prompt"
      title="System prompt of this session"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn" onClick={() => setDraft(DEFAULT_SYSTEM_PROMPT)}>
            Reset to default
          </button>
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn primary" onClick={() => void save()}>
            Save
          </button>
        </>
      }
    >
      <p className="agent-faint">
        Sent to the model before the conversation on every request of this session. It is stored in this
        browser, not in the session file.
      </p>
      <textarea
        className="agent-prompt-editor"
        aria-label="System prompt"
        value={draft ?? ""}
        rows={14}
        onChange={(e) => setDraft(e.target.value)}
      />
    </Dialog>
  );
}
