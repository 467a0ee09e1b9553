/**
 * The composer of a session (the "composer" slot): the run above it, the session's model and
 * thinking level (a change appends model_change / thinking_level_change entries), the system
 * prompt and workspace buttons, and the prompt box: Enter sends, Shift+Enter is a newline, Esc
 * (or Stop) stops. Another tab running the session disables sending and says so. Until the
 * whole session is read (a big one shows its newest rows, or its outline, first), the model and
 * thinking level are not known: their fields are empty and disabled, never a default shown as
 * the session's.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { THINKING_LEVELS } from "../../core/agent/settings.ts";
import { awaitsReply } from "../../services/agent/interrupted-reply.ts";
import { useAgentUiStore } from "../../store/agent-ui-store.ts";
import {
  openCompactionPreview,
  parseCompactCommand,
  useSessionCompaction,
} from "../../store/compaction-store.ts";
import { useTreeStore } from "../../store/tree-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { ErrorBoundary } from "../common/error-boundary.tsx";
import { HiddenCharsNote } from "../common/safe-text.tsx";
import { useCurrentSession } from "../hooks/current-session.tsx";
import { useSessionContext } from "../hooks/session-context.ts";
import { SummaryInstructionsButton } from "../pins/pins-controls.tsx";
import { lazyComponent } from "../shell/lazy-component.ts";
import { LoadBoundary } from "../shell/load-boundary.tsx";
import type { SessionSlotProps } from "../shell/slots.ts";
import { sessionPath } from "../tree/tree-model.ts";
import { CompactionNotice, LiveRun } from "./live-run.tsx";
import { OverflowWayOut } from "./overflow-way-out.tsx";
import { useProviderSettings, useSessionAgent } from "./use-agent.ts";
import { WaitingPrompt } from "./waiting-prompt.tsx";

// Opened on demand: not needed to show a session.
const SystemPromptDialog = lazyComponent(
  () => import("./system-prompt-dialog.tsx"),
  (m) => m.SystemPromptDialog,
);
const WorkspacePanel = lazyComponent(
  () => import("./workspace-panel.tsx"),
  (m) => m.WorkspacePanel,
);

export function AgentComposer({ sessionId }: SessionSlotProps) {
  const { loaded } = useCurrentSession();
  const { controller, state, ready } = useSessionAgent(sessionId);
  const settings = useProviderSettings();
  const toast = useUiStore((s) => s.pushToast);
  const openSettings = useUiStore((s) => s.setSettingsOpen);
  const filesOpen = useAgentUiStore((s) => s.filesOpen);
  const setFilesOpen = useAgentUiStore((s) => s.setFilesOpen);
  const [text, setText] = useState("");
  const [hidden, setHidden] = useState(false);
  const [promptOpen, setPromptOpen] = useState(false);
  const [modelDraft, setModelDraft] = useState<string | null>(null);
  /** The prompt of the run in progress (shown while it waits for a compaction review). */
  const [sentPrompt, setSentPrompt] = useState<string | null>(null);
  /** A message not sent because the browser was offline ("back": the connection returned). */
  const [offlineHeld, setOfflineHeld] = useState<"offline" | "back" | null>(null);
  const waiting = useSessionCompaction(sessionId, (s) => s.queued);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const modelRef = useRef<HTMLInputElement>(null);
  /** An overflow dead end stands (its panel says what happened to the last message). */
  const [deadEnd, setDeadEnd] = useState(false);

  // "Edit and resend" / navigating to a user message hands its text to this composer.
  const draft = useTreeStore((s) => s.composerDraft);
  useEffect(() => {
    if (!draft || draft.sessionId !== sessionId) return;
    setText(draft.text);
    useTreeStore.getState().takeComposerDraft(draft.seq);
    const input = inputRef.current;
    if (input) {
      input.focus();
      requestAnimationFrame(() => input.setSelectionRange(draft.text.length, draft.text.length));
    }
  }, [draft, sessionId]);

  const path = useMemo(() => (loaded ? sessionPath(loaded.entries) : []), [loaded]);
  // A big session's context is built in slices once it is shown: until then its model and
  // thinking level are not known (shown as being read).
  const context = useSessionContext(loaded ? path : undefined);
  const known = context !== undefined;
  // Memoized: the composer re-renders on every streamed delta; this walks the whole path.
  const effective = useMemo(
    () => (settings && context ? controller.effective(path, settings, context) : undefined),
    [controller, path, settings, context],
  );
  const running = state.running;
  const blocked = state.elsewhere && !running;
  const lostReply = useMemo(
    () => !running && context !== undefined && awaitsReply(path, context),
    [running, path, context],
  );

  /** Cancel on a waiting prompt: its text is not given back when the stopped send returns. */
  const dropReturned = useRef(false);
  const sendPrompt = useCallback(
    async (prompt: string) => {
      if (!loaded || prompt === "" || running || blocked) return false;
      setHidden(false);
      setSentPrompt(prompt);
      const out = await controller.send(loaded, prompt).finally(() => setSentPrompt(null));
      // The prompt was not saved (refused, stopped, offline, or nothing could be written): keep it.
      const saved = out.ok && out.promptSent;
      const drop = !out.ok && out.reason === "stopped" && dropReturned.current;
      dropReturned.current = false;
      if (!saved && !drop) setText((t) => (t === "" ? prompt : t));
      if (!out.ok && out.reason === "setup") toast({ kind: "error", message: out.message });
      setOfflineHeld(!out.ok && out.reason === "offline" ? "offline" : null);
      inputRef.current?.focus();
      return true;
    },
    [loaded, running, blocked, controller, toast],
  );

  const sendWhenLoaded = useRef(false);
  const send = useCallback(async () => {
    const prompt = text.trim();
    const compact = parseCompactCommand(prompt); // `/compact [focus]` opens the compaction preview
    if (compact) {
      setText("");
      openCompactionPreview(sessionId, compact);
      return;
    }
    if (prompt === "" || running || blocked) return;
    // Enter pressed while the session is still being read: it goes out once the session is there.
    if (!loaded) {
      sendWhenLoaded.current = true;
      return;
    }
    setText("");
    await sendPrompt(prompt);
  }, [text, loaded, running, blocked, sessionId, sendPrompt]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a wait for another session's load ends with it
  useEffect(() => {
    sendWhenLoaded.current = false;
  }, [sessionId]);
  useEffect(() => {
    if (!loaded || !sendWhenLoaded.current) return;
    sendWhenLoaded.current = false;
    void send();
  }, [loaded, send]);

  // A message held back offline: when the browser is online again, offer to send it.
  useEffect(() => {
    if (offlineHeld !== "offline") return;
    const back = () => setOfflineHeld("back");
    window.addEventListener("online", back);
    if (navigator.onLine) back();
    return () => window.removeEventListener("online", back);
  }, [offlineHeld]);

  // Esc stops a run from anywhere on the page (unless a dialog has the focus).
  useEffect(() => {
    if (!running) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || document.querySelector("dialog[open]")) return;
      e.preventDefault();
      controller.stop();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [running, controller]);

  const resolveInterrupted = useCallback(
    async (action: "keep" | "drop") => {
      const r = await controller.resolveInterrupted(action);
      if (r.ok) setHidden(false);
      return r.ok ? null : r.message;
    },
    [controller],
  );

  const change = async (wanted: { modelId?: string; thinkingLevel?: string }) => {
    if (!loaded) return;
    const r = await controller.changeSettings(loaded, wanted);
    if (!r.ok) toast({ kind: "error", message: r.message });
  };

  const commitModel = () => {
    if (modelDraft === null) return;
    const m = modelDraft.trim();
    setModelDraft(null);
    if (m !== "" && m !== effective?.modelId) void change({ modelId: m });
  };

  return (
    <div className="agent-composer" data-testid="agent-composer">
      <CompactionNotice sessionId={sessionId} />
      <OverflowWayOut
        sessionId={sessionId}
        path={path}
        running={running || blocked}
        onEdit={(t) => {
          setText(t);
          inputRef.current?.focus();
        }}
        onPickModel={() => modelRef.current?.focus()}
        onFound={setDeadEnd}
      />
      <WaitingPrompt
        sessionId={sessionId}
        path={path}
        elsewhere={blocked}
        onSend={(t) => void sendPrompt(t)}
        onEdit={(t) => {
          setText(t);
          inputRef.current?.focus();
        }}
        onStop={(keepText) => {
          dropReturned.current = !keepText;
          controller.stop();
        }}
      />
      {(!hidden || state.interrupted) && (
        <ErrorBoundary name="the current run">
          <LiveRun
            state={state}
            sessionId={sessionId}
            waiting={waiting > 0}
            onClose={() => setHidden(true)}
            onResolveInterrupted={resolveInterrupted}
          />
        </ErrorBoundary>
      )}
      {sentPrompt !== null && !ready && (
        <div className="agent-status" role="status" data-testid="agent-starting">
          Starting the agent… (its code is still loading; your message goes out as soon as it is here)
        </div>
      )}
      {blocked && (
        <div className="agent-status warn" role="status" data-testid="running-elsewhere">
          This session is running in another tab. New entries appear here as they are saved; you can send once
          it finishes there.
        </div>
      )}
      {lostReply && !blocked && !state.interrupted && !deadEnd && (
        <div className="agent-status" role="status" data-testid="reply-missing">
          Your last message has no reply (it was lost or dropped). Your next message goes out together with
          it, as one message, as pi does.
        </div>
      )}
      {offlineHeld === "back" && text.trim() !== "" && !running && (
        <div className="agent-status" role="status" data-testid="back-online">
          The connection is back. Your message is still in the box.{" "}
          <button type="button" className="btn small primary" onClick={() => void send()}>
            Send it now
          </button>
        </div>
      )}
      <div className="agent-bar">
        <label className="agent-inline">
          <span>Model</span>
          <input
            ref={modelRef}
            className="agent-model-input"
            aria-label="Model of this session"
            value={known ? (modelDraft ?? effective?.modelId ?? "") : ""}
            placeholder={known ? "set in Settings" : "reading the session…"}
            disabled={running || blocked || !known}
            onChange={(e) => setModelDraft(e.target.value)}
            onBlur={commitModel}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                commitModel();
              }
            }}
          />
        </label>
        <HiddenCharsNote value={known ? (modelDraft ?? effective?.modelId ?? "") : ""} />
        <label className="agent-inline">
          <span>Thinking</span>
          <select
            aria-label="Thinking level of this session"
            value={known ? (effective?.thinkingLevel ?? "off") : ""}
            disabled={running || blocked || !known}
            onChange={(e) => void change({ thinkingLevel: e.target.value })}
          >
            {/* Until the session is read, its level is not known: no level is shown as its own. */}
            {!known && <option value="">…</option>}
            {THINKING_LEVELS.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn small" onClick={() => setPromptOpen(true)}>
          System prompt
        </button>
        <SummaryInstructionsButton sessionId={sessionId} scope="session" />
        <button
          type="button"
          className="btn small"
          aria-pressed={filesOpen}
          onClick={() => setFilesOpen(!filesOpen)}
        >
          Files
        </button>
      </div>
      {settings && settings.model === "" && (
        <div className="agent-status agent-setup" role="status" data-testid="setup-model">
          <span>No model is set up yet: choose a provider, its key and a model to send messages.</span>
          <button type="button" className="btn small primary" onClick={() => openSettings(true)}>
            Set up a model
          </button>
        </div>
      )}
      <form
        className="agent-input-row"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <textarea
          ref={inputRef}
          className="agent-input"
          aria-label="Message"
          placeholder={
            blocked
              ? "Running in another tab…"
              : "Message the agent — Enter sends, Shift+Enter for a new line"
          }
          rows={2}
          value={text}
          disabled={blocked}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            } else if (e.key === "Escape" && running) {
              e.preventDefault();
              controller.stop();
            }
          }}
        />
        {running ? (
          <button type="button" className="btn danger" onClick={() => controller.stop()}>
            Stop
          </button>
        ) : (
          <button type="submit" className="btn primary" disabled={blocked || text.trim() === "" || !loaded}>
            Send
          </button>
        )}
      </form>
      {filesOpen && (
        <ErrorBoundary name="the workspace files">
          {/* Its code loads with the agent's: the composer stays usable meanwhile. */}
          <LoadBoundary
            fallback={
              <p className="slot-loading" role="status">
                Opening the workspace…
              </p>
            }
          >
            <WorkspacePanel />
          </LoadBoundary>
        </ErrorBoundary>
      )}
      {promptOpen && <SystemPromptDialog sessionId={sessionId} onClose={() => setPromptOpen(false)} />}
    </div>
  );
}
