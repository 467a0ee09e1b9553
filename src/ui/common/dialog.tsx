/**
 * Modal dialog on the native <dialog>: showModal() makes the rest of the page inert (focus
 * stays inside), Esc closes (calls onClose), focus returns to the opener afterwards. Focus starts
 * on the first element marked `data-autofocus` (else the browser's choice: the first focusable).
 */
import { type ReactNode, useEffect, useRef } from "react";

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  actions: ReactNode;
  /** A data-testid / label hook for tests. */
  name?: string;
}

export function Dialog({ open, title, onClose, children, actions, name }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) {
      const opener = document.activeElement as HTMLElement | null;
      el.showModal();
      el.querySelector<HTMLElement>("[data-autofocus]")?.focus();
      return () => {
        if (el.open) el.close();
        opener?.focus?.();
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
      <div className="dialog-actions">{actions}</div>
    </dialog>
  );
}
