/**
 * Confirm in the review: the compaction entry written with its coverage and record (details,
 * next to pi's file lists), the checkpoint and the summarizer's usage; then the session's review
 * is reset, what waited for it goes on, and a notice offers Undo. Nothing is written on failure.
 */
import { tokensAfter } from "../../core/compaction/breakdown.ts";
import { compactionDetails } from "../../core/compaction/compaction-record.ts";
import type { CompactionPlan } from "../../core/compaction/plan.ts";
import { type CoverageReport, checkCoverage } from "../../core/coverage/coverage.ts";
import { coverageDetails } from "../../core/coverage/coverage-details.ts";
import type { SystemMessage } from "../../core/session/types.ts";
import { LEAF_MOVED_MESSAGE } from "../../db/append-at-leaf.ts";
import { db } from "../../db/instance.ts";
import { coverageItemsInSlices } from "../../services/common/slices.ts";
import { confirmCompaction } from "../../services/compaction/compaction-runner.ts";
import { releaseQueuedPrompts } from "../../services/compaction/review-queue.ts";
import { sessionState, useCompactionStore } from "../../store/compaction-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { kTokens } from "./format-tokens.ts";
import { runUndo } from "./undo-redo.ts";
import type { CompactionModel } from "./use-compaction-model.ts";

/** Writes the review's draft as a compaction of `plan`; true when it was written. */
export async function confirmReview(
  model: CompactionModel,
  plan: CompactionPlan,
  report0: CoverageReport | undefined,
): Promise<boolean> {
  const sessionId = model.sessionId;
  const store = useCompactionStore.getState;
  const patch = (p: Parameters<ReturnType<typeof store>["patch"]>[1]) => store().patch(sessionId, p);
  const s = sessionState(store(), sessionId);
  if (!s.draftTarget) return false;
  const leaf = model.path[model.path.length - 1]?.id ?? null;
  const target = s.draftTarget;
  // Stored with the entry (details, next to the file lists): what the summary covers, and how it came.
  // (Confirm before the review's read of the items finished: they are read now, in slices.)
  const report =
    report0 ??
    checkCoverage(s.draft, (await coverageItemsInSlices(plan)) ?? [], { dismissed: s.coverageDismissed });
  const record = {
    model: "",
    ...target.record,
    // Masked first in this review, then summarized: the "mask, then summarize" strategy.
    ...(s.maskedInReview > 0
      ? { trigger: "masking" as const, maskedOutputs: s.maskedInReview }
      : { trigger: s.reason ? ("threshold" as const) : ("manual" as const) }),
  };
  const r = await confirmCompaction(db, {
    sessionId,
    parentId: leaf,
    expectedLeafId: leaf,
    fields: {
      summary: s.draft,
      firstKeptEntryId: target.firstKeptEntryId,
      tokensBefore: target.tokensBefore,
      details: compactionDetails(target, { coverage: coverageDetails(report), record }),
      ...(target.systemMessage ? { systemMessage: target.systemMessage as SystemMessage } : {}),
      ...(target.usage ? { usage: target.usage } : {}),
    },
    takenIds: new Set(model.path.map((e) => e.id)),
  });
  const ui = useUiStore.getState();
  if (!r.ok) {
    patch({
      error:
        r.error.kind === "conflict" && r.error.message === LEAF_MOVED_MESSAGE
          ? "The session moved on since this review was drawn (another tab or a run wrote to it). Nothing was written; the review now shows the new plan: check it, then confirm again or discard this draft."
          : `Nothing was written: ${r.error.message}`,
    });
    return false;
  }
  const entry = r.value.entry;
  const measured = tokensAfter(plan, model.account, entry.summary, model.planner.estimator).total;
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
    last: {
      sessionId,
      entryId: entry.id,
      tokensBefore: plan.tokensBefore,
      tokensAfter: measured,
      auto: false,
    },
  });
  store().closePreview(sessionId);
  releaseQueuedPrompts(sessionId, [...model.path, entry]);
  ui.pushToast({
    kind: "success",
    key: `compaction:${sessionId}`,
    sessionId,
    message: `Compacted ${kTokens(plan.tokensBefore)} → ${kTokens(measured)} tokens`,
    action: { label: "Undo", run: () => void runUndo(sessionId, entry, model.path) },
    timeout: 10000,
  });
  return true;
}
