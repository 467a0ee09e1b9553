/**
 * Confirm in the review, as the UI sees it: one service call (services/compaction/confirm-service.ts
 * checks coverage, builds the record, writes and releases the waiting prompts); then the session's
 * review is reset and a notice offers Undo, or the review says why nothing was written.
 */
import type { CompactionPlan } from "../../core/compaction/plan.ts";
import type { CoverageReport } from "../../core/coverage/coverage.ts";
import type { CompactionActions } from "../../services/app/app-services.ts";
import type { Confirmed } from "../../services/compaction/confirm-service.ts";
import { sessionState, useCompactionStore } from "../../store/compaction-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { kTokens } from "./format-tokens.ts";
import { runUndo } from "./undo-redo.ts";
import type { CompactionModel } from "./use-compaction-model.ts";

const MOVED_ON =
  "The session moved on since this review was drawn (another tab or a run wrote to it). Nothing was written; the review now shows the new plan: check it, then confirm again or discard this draft.";

/** Writes the review's draft as a compaction of `plan`; true when it was written. */
export async function confirmReview(
  actions: CompactionActions,
  model: CompactionModel,
  plan: CompactionPlan,
  coverage: CoverageReport | undefined,
): Promise<boolean> {
  const sessionId = model.sessionId;
  const store = useCompactionStore.getState;
  const s = sessionState(store(), sessionId);
  if (!s.draftTarget) return false;
  // The review is reset as the entry is written, before the prompts that waited for it go on.
  const reset = (done: Confirmed) =>
    store().setStatus(sessionId, "confirmed", {
      draft: "",
      draftTarget: null,
      draftSource: null,
      undoneFrom: null,
      draftIncomplete: false,
      previous: null,
      error: null,
      cutEntryId: null,
      keepRecentOverride: null,
      focus: "",
      undone: null,
      coverageDismissed: [],
      maskedInReview: 0,
      openedPanel: false,
      last: {
        sessionId,
        entryId: done.entry.id,
        tokensBefore: done.tokensBefore,
        tokensAfter: done.tokensAfter,
        auto: false,
      },
    });
  const r = await actions.confirm(
    {
      sessionId,
      path: model.path,
      plan,
      account: model.account,
      estimator: model.planner.estimator,
      draft: s.draft,
      target: s.draftTarget,
      coverageDismissed: s.coverageDismissed,
      maskedInReview: s.maskedInReview,
      reason: s.reason,
      coverage,
    },
    (done) => {
      reset(done);
      store().closePreview(sessionId);
    },
  );
  if (!r.ok) {
    store().patch(sessionId, { error: r.moved ? MOVED_ON : `Nothing was written: ${r.message}` });
    return false;
  }
  const { entry } = r;
  // A panel the review opened closes with it: the main timeline is back at its width, at the compaction.
  if (s.openedPanel) useUiStore.getState().setRightPanelOpen(false);
  useUiStore.getState().pushToast({
    kind: "success",
    key: `compaction:${sessionId}`,
    sessionId,
    message: `Compacted ${kTokens(r.tokensBefore)} → ${kTokens(r.tokensAfter)} tokens`,
    action: { label: "Undo", run: () => void runUndo(actions, sessionId, entry, model.path) },
    timeout: 10000,
  });
  return true;
}
