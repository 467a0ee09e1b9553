/**
 * The sessions whose delete has its Undo offered in this tab: one offer each, though both the
 * delete and a reload's start-up offer it (and React's StrictMode runs the start-up twice).
 * Owned by the tab's services (services/app/app-services.ts), not a module global.
 */

export interface UndoOffers {
  /** Marks the session's Undo as offered; false when it already was (offer nothing then). */
  take(sessionId: string): boolean;
  /** The offer ended (Undo chosen, or the window over): a later delete is offered again. */
  release(sessionId: string): void;
}

export function createUndoOffers(): UndoOffers {
  const offered = new Set<string>();
  return {
    take(sessionId) {
      if (offered.has(sessionId)) return false;
      offered.add(sessionId);
      return true;
    },
    release(sessionId) {
      offered.delete(sessionId);
    },
  };
}
