/**
 * A prompt that waits for the session's compaction review, in the composer area: its text, the
 * review one click away (Open the review), Skip and send, Edit (back into the box) and Cancel.
 * It is stored (services/compaction/prompt-waits.ts), so it is shown again after a reload; then, once the
 * review is decided, it is claimed and sent once.
 */
import { useEffect, useRef, useSyncExternalStore } from "react";
import type { SessionEntry } from "../../core/session/types.ts";
import { alreadySent } from "../../services/compaction/prompt-waits.ts";
import { openCompactionPreview, useSessionCompaction } from "../../store/compaction-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { skipReview } from "../compaction/review-actions.ts";
import { useLive } from "../data/use-live.ts";
import { useAppServices } from "../hooks/app-services.tsx";

export interface WaitingPromptProps {
  sessionId: string;
  path: readonly SessionEntry[];
  /** Another tab runs the session: its waiting prompt is that tab's to send. */
  elsewhere: boolean;
  /** Sends a prompt that waited across a reload (the review was decided). */
  onSend(text: string): void;
  /** Puts the text in the box (Edit). */
  onEdit(text: string): void;
  /** Stops the run of this tab that holds the prompt; `keepText`: its text goes back in the box. */
  onStop(keepText: boolean): void;
}

export function WaitingPrompt({ sessionId, path, elsewhere, onSend, onEdit, onStop }: WaitingPromptProps) {
  const services = useAppServices();
  const { waits: promptWaits, watchWaitingPrompt } = services.stranded;
  const stored = useLive(() => watchWaitingPrompt(sessionId), [sessionId, watchWaitingPrompt]);
  const held = useSyncExternalStore(promptWaits.subscribe, () => promptWaits.isHeld(sessionId));
  const queued = useSessionCompaction(sessionId, (s) => s.queued);
  const reviewOpen = useSessionCompaction(sessionId, (s) => s.previewOpen);
  const panelOpen = useUiStore((s) => s.rightPanelOpen);
  const pathRef = useRef(path);
  pathRef.current = path;
  const sendRef = useRef(onSend);
  sendRef.current = onSend;

  // A prompt no run holds (it waited across a reload) goes out once the review is decided.
  useEffect(
    () =>
      services.reviewQueue.onDecided((id) => {
        if (id !== sessionId) return;
        void promptWaits.claim(sessionId, pathRef.current).then((p) => p && sendRef.current(p.text));
      }),
    [sessionId, services, promptWaits],
  );

  const prompt = stored && !alreadySent(stored, path) ? stored : undefined;
  if (elsewhere || (!prompt && queued === 0)) return null;
  const text = prompt?.text;

  const edit = async (keepText: boolean) => {
    if (held) return onStop(keepText);
    const p = await promptWaits.claim(sessionId);
    if (p && keepText) onEdit(p.text);
  };

  return (
    <div className="agent-status warn agent-waiting" role="status" data-testid="queued-note">
      <span>
        {text !== undefined || queued <= 1 ? "Your message waits" : `${queued} messages wait`} until you
        confirm or skip this compaction.
      </span>
      {text !== undefined && (
        <q className="agent-waiting-text" data-testid="waiting-prompt">
          {text}
        </q>
      )}
      <span className="agent-waiting-actions">
        {!(reviewOpen && panelOpen) && (
          <button type="button" className="btn small" onClick={() => openCompactionPreview(sessionId)}>
            Open the review
          </button>
        )}
        <button
          type="button"
          className="btn small primary"
          onClick={() => skipReview(services.compaction, sessionId)}
        >
          Skip and send
        </button>
        {text !== undefined && (
          <>
            <button type="button" className="btn small" onClick={() => void edit(true)}>
              Edit
            </button>
            <button type="button" className="btn small ghost" onClick={() => void edit(false)}>
              Cancel
            </button>
          </>
        )}
      </span>
    </div>
  );
}
