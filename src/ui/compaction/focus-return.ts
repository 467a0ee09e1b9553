/** Where the focus goes when the control that had it goes away or is disabled (a review confirmed, a compaction undone, outputs masked). */

const FALLBACKS =
  '[data-testid="compact-open"], [data-testid="compact-open-top"], [data-testid="context-meter"]';

/** Focuses the first of `candidates` that can take the focus, then the compaction controls. */
export function focusFirstOf(candidates: readonly (Element | null | undefined)[]): void {
  for (const c of [...candidates, ...document.querySelectorAll(FALLBACKS)]) {
    const el = c as HTMLElement | null | undefined;
    if (!el?.isConnected || el === document.body || (el as HTMLButtonElement).disabled) continue;
    el.focus();
    if (document.activeElement === el) return;
  }
}

/** After the next frame: when nothing has the focus, the compaction controls get it. */
export function refocusIfLost(): void {
  requestAnimationFrame(() => {
    const active = document.activeElement;
    if (active === null || active === document.body) focusFirstOf([]);
  });
}
