/**
 * Modal dialog on the native <dialog>: showModal() makes the rest of the page inert (focus
 * stays inside), Esc closes (calls onClose), focus returns to the opener afterwards. Focus starts
 * on the first element marked `data-autofocus` (else the browser's choice: the first focusable).
 * Without `actions`, its one action is "Close" (a notice).
 */
import { type ReactNode, useLayoutEffect, useRef } from "react";

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** The buttons at its foot; default: one "Close" (calls onClose). */
  actions?: ReactNode;
  /** A data-testid / label hook for tests. */
  name?: string;
}

export function Dialog({ open, title, onClose, children, actions, name }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  // A layout effect: its cleanup closes the dialog while it is still in the document, so the
  // browser hands focus back to the opener itself. (Removed first, the dialog takes the focus
  // with it, and focusing the opener afterwards forced a style and layout pass of its own.)
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) {
      const opener = document.activeElement as HTMLElement | null;
      el.showModal();
      el.querySelector<HTMLElement>("[data-autofocus]")?.focus();
      return () => {
        if (el.open) el.close();
        if (opener?.isConnected && document.activeElement !== opener) opener.focus?.();
      };
    }
    return undefined;
  }, [open]);

  if (!open) return null;
  const titleId = `dlg-${name ?? "dialog"}-title`;
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      data-dialog={name}
      onCancel={(e) => {
        e.preventDefault();
        onCloseRef.current();
      }}
    >
      <div className="dialog-body">
        <h2 id={titleId}>{title}</h2>
        {children}
      </div>
      <div className="dialog-actions">
        {actions ?? (
          <button type="button" className="btn" onClick={() => onCloseRef.current()}>
            Close
          </button>
        )}
      </div>
    </dialog>
  );
}
