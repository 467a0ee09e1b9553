/**
 * The current (or last) run above the composer: the messages it completed (each already saved),
 * the reply streaming now, and what is going on in words: retry countdown, tool running, the
 * error of a failed run, a reply that could not be saved, a reply cut off by a reload (keep or
 * drop it), that the run waits for a compaction review (its prompt is shown by waiting-prompt.tsx);
 * and the session's compaction banner.
 */
import { useEffect, useRef, useState } from "react";
import type { SessionAgentState } from "../../services/agent/agent-session.ts";
import { keepable } from "../../services/agent/interrupted-reply.ts";
import { useCompactionStore, useSessionCompaction } from "../../store/compaction-store.ts";
import { ErrorWords } from "../common/error-words.tsx";
import { SafeText } from "../common/safe-text.tsx";
import { AssistantView, MessageView } from "./message-view.tsx";
import { useCountdown } from "./use-agent.ts";

function retryLabel(reason: string): string {
  if (/rate limit|429/i.test(reason)) return "Rate limited";
  if (/server/i.test(reason)) return `The provider failed (${reason})`;
  if (/network/i.test(reason)) return "Network error";
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

function Status({ state }: { state: SessionAgentState }) {
  const s = state.runner.status;
  const countdown = useCountdown(s.kind === "retrying" ? s.retryAt : null);
  if (!state.running) {
    if (s.kind !== "error") return null;
    // The reply that failed shows the same words just above: said once on screen (and in full
    // to a screen reader, which announces this alert and not the reply).
    const last = state.log[state.log.length - 1] as { role?: string; errorMessage?: unknown } | undefined;
    const above = last?.role === "assistant" && last.errorMessage === s.message;
    return (
      <div className="agent-status error" role="alert" data-testid="run-error">
        <strong>{above ? "The run stopped with the error above." : "The run stopped with an error."}</strong>{" "}
        {above ? (
          <span className="sr-only">
            <SafeText text={s.message} />
          </span>
        ) : (
          <ErrorWords text={s.message} />
        )}{" "}
        <span className="agent-faint">Everything before it is saved.</span>
      </div>
    );
  }
  if (s.kind === "retrying")
    return (
      <div className="agent-status warn" role="status" data-testid="retry-status">
        <SafeText text={retryLabel(s.reason)} /> — retrying in {countdown ?? Math.ceil(s.delayMs / 1000)} s
        (attempt {s.attempt})
      </div>
    );
  if (s.kind === "running-tool")
    return (
      <div className="agent-status" role="status">
        Running tool{" "}
        <code>
          <SafeText text={s.toolName} />
        </code>
        …
      </div>
    );
  if (s.kind === "streaming" && !state.live)
    return (
      <div className="agent-status" role="status">
        Waiting for the model{s.turn > 1 ? ` (turn ${s.turn})` : ""}…
      </div>
    );
  return null;
}

function Interrupted({
  state,
  onResolve,
}: {
  state: SessionAgentState;
  onResolve: (action: "keep" | "drop") => Promise<string | null>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cp = state.interrupted;
  if (!cp) return null;
  const hasText = keepable(cp.message);
  const act = async (action: "keep" | "drop") => {
    setBusy(true);
    setError(await onResolve(action));
    setBusy(false);
  };
  return (
    <div className="agent-interrupted" data-testid="interrupted-reply">
      <p className="agent-flag aborted">
        <strong>Interrupted reply.</strong> The page was reloaded or closed while this reply was streaming
        (last saved {new Date(cp.savedAt).toLocaleTimeString()}). Keep it in the session, marked as
        interrupted, or drop it.
      </p>
      {hasText ? (
        <AssistantView message={cp.message} streaming={false} />
      ) : (
        <p className="agent-faint">No text of the reply had arrived: there is nothing to keep.</p>
      )}
      <div className="agent-interrupted-actions">
        {hasText && (
          <button type="button" className="btn small" disabled={busy} onClick={() => void act("keep")}>
            Keep it
          </button>
        )}
        <button type="button" className="btn small ghost" disabled={busy} onClick={() => void act("drop")}>
          Drop it
        </button>
      </div>
      {error && (
        <p className="agent-flag error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** A compaction problem of this session (overflow recovery): said once, here, until dismissed. */
export function CompactionNotice({ sessionId }: { sessionId: string }) {
  const notice = useSessionCompaction(sessionId, (s) => s.notice);
  if (!notice) return null;
  return (
    <div className="agent-status error" role="alert" data-testid="compaction-notice">
      <ErrorWords text={notice} />{" "}
      <button
        type="button"
        className="btn small"
        onClick={() => useCompactionStore.getState().patch(sessionId, { notice: null })}
      >
        Dismiss
      </button>
    </div>
  );
}

export function LiveRun({
  state,
  waiting,
  onClose,
  onResolveInterrupted,
}: {
  state: SessionAgentState;
  sessionId: string;
  /** Something of this run waits for the compaction review (shown above the run, with its text). */
  waiting: boolean;
  onClose: () => void;
  onResolveInterrupted: (action: "keep" | "drop") => Promise<string | null>;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const innerRef = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  const empty =
    state.log.length === 0 &&
    !state.live &&
    !state.unsaved &&
    !state.problem &&
    !state.interrupted &&
    !state.running &&
    !waiting &&
    state.runner.status.kind !== "error";
  // Follow the end while content grows (streaming, new messages, markdown), unless the person
  // scrolled up. One observer per shown panel; it writes scrollTop only when not at the end.
  useEffect(() => {
    const el = scrollRef.current;
    const inner = innerRef.current;
    if (empty || !el || !inner || typeof ResizeObserver === "undefined") return;
    const follow = () => {
      if (atEnd.current && el.scrollHeight - el.scrollTop - el.clientHeight > 1)
        el.scrollTop = el.scrollHeight;
    };
    const observer = new ResizeObserver(follow);
    observer.observe(inner);
    return () => observer.disconnect();
  }, [empty]);

  if (empty) return null;
  return (
    <section className="agent-run" aria-label="Current run" data-testid="agent-run">
      <div className="agent-run-head">
        <span>
          {waiting
            ? "Waiting for the compaction review"
            : state.running
              ? "Running…"
              : state.interrupted
                ? "Interrupted run"
                : "Last run"}
        </span>
        {!state.running && !state.interrupted && (
          <button type="button" className="btn ghost small" onClick={onClose} aria-label="Hide the last run">
            Hide
          </button>
        )}
      </div>
      <div
        ref={scrollRef}
        className="agent-run-scroll"
        onScroll={(e) => {
          const el = e.currentTarget;
          atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        <div ref={innerRef} className="agent-run-inner">
          {state.log.map((m, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the log is append-only.
            <MessageView key={i} message={m} />
          ))}
          {state.live && <AssistantView message={state.live} streaming />}
          <Interrupted state={state} onResolve={onResolveInterrupted} />
          {state.unsaved && (
            <div className="agent-unsaved" data-testid="unsaved-reply">
              <p className="agent-flag error">
                This reply could not be saved (the session stays as it was before it). Copy what you need.
              </p>
              <AssistantView message={state.unsaved} streaming={false} />
            </div>
          )}
          <Status state={state} />
          {state.problem && (
            <div className="agent-status error" role="alert" data-testid="run-problem">
              <SafeText text={state.problem} />
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
