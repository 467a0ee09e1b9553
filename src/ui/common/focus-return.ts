/** Giving the focus back when the control that had it went away or was disabled (a panel closed, an action done). */

/** Focuses the first of `candidates` that can take the focus; false when none could. */
export function focusFirstOf(candidates: Iterable<Element | null | undefined>): boolean {
  for (const c of candidates) {
    const el = c as HTMLElement | null | undefined;
    if (!el?.isConnected || el === document.body || (el as HTMLButtonElement).disabled) continue;
    el.focus();
    if (document.activeElement === el) return true;
  }
  return false;
}

/** After the next frame, and only when nothing has the focus then: the first of `candidates()` gets it. */
export function refocusIfLost(candidates: () => Iterable<Element | null | undefined>): void {
  requestAnimationFrame(() => {
    const active = document.activeElement;
    if (active === null || active === document.body) focusFirstOf(candidates());
  });
}
