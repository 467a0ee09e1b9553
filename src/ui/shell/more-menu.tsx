/**
 * The top bar's "⋯" menu: the actions that do not earn a place in the bar. Its items stay mounted
 * while it is closed (hidden), so their dialogs and panels live on; a click on one closes the menu
 * with the focus on "⋯" (a dialog it opened gives the focus back there); Escape and a click
 * outside close it too.
 */
import { type ReactNode, useEffect, useId, useRef, useState } from "react";

export function MoreMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const root = rootRef.current;
    if (!open || !root) return;
    const onDown = (e: PointerEvent) => {
      if (!root.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || (e.target as Element).closest("dialog")) return;
      e.stopPropagation();
      setOpen(false);
      toggleRef.current?.focus();
    };
    // A click on an item closes the menu, the focus on ⋯ first (a dialog it opens gives it back there).
    const onClick = (e: MouseEvent) => {
      const button = (e.target as Element).closest("button");
      if (!button || button === toggleRef.current || button.closest("dialog")) return;
      toggleRef.current?.focus();
      setOpen(false);
    };
    document.addEventListener("pointerdown", onDown);
    root.addEventListener("keydown", onKey);
    root.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("pointerdown", onDown);
      root.removeEventListener("keydown", onKey);
      root.removeEventListener("click", onClick);
    };
  }, [open]);

  return (
    <div className="more-menu" ref={rootRef}>
      <button
        ref={toggleRef}
        type="button"
        className="btn icon"
        aria-label="More actions"
        title="More actions"
        aria-expanded={open}
        aria-controls={id}
        data-testid="topbar-more"
        onClick={() => setOpen(!open)}
      >
        ⋯
      </button>
      <div id={id} className="more-menu-pop" data-open={open} data-testid="topbar-menu">
        {children}
      </div>
    </div>
  );
}
