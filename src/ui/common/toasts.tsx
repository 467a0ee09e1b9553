/** Toasts: results and errors of actions, with an optional action (Undo, also after a reload). */
import { useEffect } from "react";
import { type Toast, useUiStore } from "../../store/ui-store.ts";
import { SafeText } from "./safe-text.tsx";
import { useUndoAfterReload } from "./undo-delete.ts";

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useUiStore((s) => s.dismissToast);
  useEffect(() => {
    if (!toast.timeout) return;
    const t = window.setTimeout(() => dismiss(toast.id), toast.timeout);
    return () => window.clearTimeout(t);
  }, [toast, dismiss]);
  return (
    <div
      className={`toast ${toast.kind}`}
      role={toast.kind === "error" ? "alert" : "status"}
      data-testid="toast"
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
  const toasts = useUiStore((s) => s.toasts);
  useUndoAfterReload();
  return (
    <div className="toasts">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </div>
  );
}
