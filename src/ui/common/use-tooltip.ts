/** A tooltip's open state: shown while the pointer is on its anchor or the keyboard focus is, hidden on a click, on Escape and when both leave. */
import { type FocusEvent, useEffect, useState } from "react";

export interface TooltipHandlers {
  onPointerEnter: () => void;
  onPointerLeave: () => void;
  onPointerDown: () => void;
  onFocus: (e: FocusEvent<HTMLElement>) => void;
  onBlur: () => void;
}

/**
 * `open` and the handlers to spread on the tooltip's anchors (the control and any part that
 * shows it on hover). Focus shows it only when the browser draws a keyboard focus ring
 * (`:focus-visible`), so a mouse click never leaves it open; Escape hides it until the pointer
 * or the focus comes back.
 */
export function useTooltip(): { open: boolean; handlers: TooltipHandlers } {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const open = hovered || focused;

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setHovered(false);
      setFocused(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  return {
    open,
    handlers: {
      onPointerEnter: () => setHovered(true),
      onPointerLeave: () => setHovered(false),
      onPointerDown: () => {
        setHovered(false);
        setFocused(false);
      },
      onFocus: (e) => setFocused(e.currentTarget.matches(":focus-visible")),
      onBlur: () => setFocused(false),
    },
  };
}
