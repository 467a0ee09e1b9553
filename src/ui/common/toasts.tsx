/**
 * Toasts: results and errors of actions, with an optional action (Undo, also after a reload).
 * Shown over the session list (wide) or as a row under the top bar (narrow): never over the
 * composer, Send or the review;
 * information goes by itself (paused while hovered or focused), errors stay until dismissed, a
 * session's toasts show only while it is open.
 */
import { useEffect, useRef, useState } from "react";
import { type Toast, useUiStore } from "../../store/ui-store.ts";
import { SafeText } from "./safe-text.tsx";
import { useUndoAfterReload } from "./undo-delete.ts";
import { useBottomVar } from "./use-bottom-var.ts";
import "./toasts.css";

function ToastItem({ toast }: { toast: Toast }) {
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
  useUndoAfterReload();
  return (
    <div ref={ref} className="toasts toasts-top" data-testid="toasts">
      {toasts
        .filter((t) => t.sessionId === undefined || t.sessionId === selected)
        .map((t) => (
          <ToastItem key={t.id} toast={t} />
        ))}
    </div>
  );
}
