/**
 * Toasts: results and errors of actions, with an optional action (Undo, also after a reload).
 * Shown over the session list (wide) or as a row under the top bar (narrow): never over the
 * composer, Send or the review;
 * information goes by itself (paused while hovered or focused), errors stay until dismissed, a
 * session's toasts show only while it is open.
 */
import { useEffect, useRef, useState } from "react";
import { type Toast, useUiStore } from "../../store/ui-store.ts";
import { useLeftoverImports } from "../import/leftover-imports.ts";
import { SafeText } from "./safe-text.tsx";
import { useUndoAfterReload } from "./undo-delete.ts";
import { useBottomVar } from "./use-bottom-var.ts";
import "./toasts.css";

/** Toasts shown at once; older ones wait behind "N more" (their timers run meanwhile). */
const SHOWN = 3;

function ToastItem({ toast, hidden }: { toast: Toast; hidden: boolean }) {
  const dismiss = useUiStore((s) => s.dismissToast);
  const [paused, setPaused] = useState(false);
  const left = useRef(toast.timeout);
  useEffect(() => {
    left.current = toast.timeout;
  }, [toast.timeout]);
  useEffect(() => {
    if (!toast.timeout || paused) return;
    const started = Date.now();
    const t = window.setTimeout(() => dismiss(toast.id), Math.max(0, left.current));
    return () => {
      window.clearTimeout(t);
      left.current -= Date.now() - started;
    };
  }, [toast.id, toast.timeout, paused, dismiss]);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hovering or focusing a toast only pauses its timer.
    <div
      className={`toast ${toast.kind}`}
      role={toast.kind === "error" ? "alert" : "status"}
      data-testid="toast"
      data-kind={toast.kind}
      hidden={hidden}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <span className="toast-msg">
        <SafeText text={toast.message} />
      </span>
      {toast.action && (
        <button
          type="button"
          className="btn"
          onClick={() => {
            toast.action?.run();
            dismiss(toast.id);
          }}
        >
          {toast.action.label}
        </button>
      )}
      <button type="button" className="btn ghost icon" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
        ✕
      </button>
    </div>
  );
}

export function Toasts() {
  const ref = useRef<HTMLDivElement>(null);
  // Narrow, with the side panel's sheet open: the sheet keeps this much room at its top (toasts.css).
  useBottomVar(ref, "toasts-h", "height");
  const toasts = useUiStore((s) => s.toasts);
  const selected = useUiStore((s) => s.selectedSessionId);
  const [all, setAll] = useState(false);
  useUndoAfterReload();
  useLeftoverImports();
  const shown = toasts.filter((t) => t.sessionId === undefined || t.sessionId === selected);
  const more = all ? 0 : Math.max(0, shown.length - SHOWN);
  useEffect(() => {
    if (shown.length <= SHOWN) setAll(false);
  }, [shown.length]);
  return (
    <div ref={ref} className="toasts toasts-top" data-testid="toasts">
      {more > 0 && (
        <div className="toast-more" data-testid="toast-more">
          <button type="button" className="btn small" onClick={() => setAll(true)}>
            {more} more {more === 1 ? "notification" : "notifications"}
          </button>
          <button
            type="button"
            className="btn ghost small"
            onClick={() => {
              for (const t of shown) useUiStore.getState().dismissToast(t.id);
            }}
          >
            Dismiss all
          </button>
        </div>
      )}
      {shown.map((t, i) => (
        // The newest are last: the oldest beyond SHOWN wait (hidden) until "N more" or their time.
        <ToastItem key={t.id} toast={t} hidden={i < more} />
      ))}
    </div>
  );
}
