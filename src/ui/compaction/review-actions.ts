/** Actions on a session's review shared by the review and the composer: Skip (and send what waits). */
import type { CompactionActions } from "../../services/app/app-services.ts";
import { useCompactionStore } from "../../store/compaction-store.ts";

/** Closes the review without compacting, and lets the prompts that wait for it go as they are. */
export function skipReview(actions: CompactionActions, sessionId: string): void {
  const store = useCompactionStore.getState();
  store.resetDraft(sessionId);
  store.patch(sessionId, { cutEntryId: null });
  store.closePreview(sessionId);
  actions.skip(sessionId);
}
