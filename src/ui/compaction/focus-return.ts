/** The compaction controls that take the focus when the one that had it is gone (a review confirmed, a compaction undone, outputs masked). */

const CONTROLS =
  '[data-testid="compact-open"], [data-testid="compact-open-top"], [data-testid="context-meter"]';

/** The "Compact…" buttons and the context meter, in that order. */
export const compactionControls = (): Element[] => [...document.querySelectorAll(CONTROLS)];
