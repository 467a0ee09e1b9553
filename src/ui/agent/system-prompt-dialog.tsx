/** Shows and edits the session's system prompt, which lives in the session as pi 1.6 system messages. */
import { useEffect, useMemo, useState } from "react";
import { currentPath } from "../../core/session/tree.ts";
import { DEFAULT_SYSTEM_PROMPT } from "../../services/agent/agent-settings.ts";
import { appSystemPrompt } from "../../services/prompt/system-prompt-instance.ts";
import type { SessionPrompt } from "../../services/prompt/system-prompt-service.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { Dialog } from "../common/dialog.tsx";
import { SafeText } from "../common/safe-text.tsx";
import { useCurrentSession } from "../hooks/current-session.tsx";
import { leafOf } from "../tree/tree-model.ts";

export function SystemPromptDialog({ sessionId, onClose }: { sessionId: string; onClose: () => void }) {
  const { loaded } = useCurrentSession();
  const toast = useUiStore((s) => s.pushToast);
  const path = useMemo(() => (loaded ? currentPath(loaded.entries) : undefined), [loaded]);
  const [prompt, setPrompt] = useState<SessionPrompt | null>(null);
  const [draft, setDraft] = useState<string | null>(null);
  useEffect(() => {
    if (!path) return;
    let live = true;
    void appSystemPrompt.read(sessionId, path).then((p) => {
      if (!live) return;
      setPrompt(p);
      setDraft((d) => d ?? p.editable);
    });
    return () => {
      live = false;
    };
  }, [path, sessionId]);

  const save = async () => {
    if (!prompt || draft === null) return;
    if (prompt.declared && draft === prompt.editable) return onClose();
    const r = await appSystemPrompt.save(sessionId, {
      current: prompt.system,
      text: draft,
      expectedLeafId: loaded ? leafOf(loaded.entries) : null,
    });
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
          <button type="button" className="btn primary" disabled={!prompt} onClick={() => void save()}>
            Save
          </button>
        </>
      }
    >
      <p className="agent-faint">
        {prompt?.declared
          ? "Declared in the session itself (a system message, as pi 1.6 writes it): every request Cutpoint sends for this session starts with it. Saving appends a change; earlier prompts stay in the history. pi 1.6, continuing the session, sends its own prompt instead (pins stay with Cutpoint's pi extension: see Pins)."
          : "This session declares no prompt yet. Its first request declares this one in the session (a system message). pi 1.6, continuing the session, sends its own prompt instead."}
      </p>
      {prompt && prompt.base !== "" && (
        <div className="agent-prompt-base">
          <div className="agent-faint">
            Base prompt the session started with (kept in front, not editable):
          </div>
          <pre>{prompt.base}</pre>
        </div>
      )}
      <textarea
        className="agent-prompt-editor"
        aria-label="System prompt"
        value={draft ?? ""}
        rows={14}
        onChange={(e) => setDraft(e.target.value)}
      />
      {prompt && prompt.pins.length > 0 && (
        <div className="agent-prompt-base" data-testid="prompt-pins">
          <div className="agent-faint">
            Pinned instructions, also part of this prompt (change them with Pins in the top bar):
          </div>
          {prompt.pins.map((p) => (
            <pre key={p.section}>
              <SafeText text={p.text} />
            </pre>
          ))}
        </div>
      )}
      {prompt && prompt.tools.length > 0 && (
        <p className="agent-faint" data-testid="declared-tools">
          Tools declared to the model: {prompt.tools.join(", ")}
        </p>
      )}
    </Dialog>
  );
}
