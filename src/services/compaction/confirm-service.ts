/** Confirm of a review as one call: coverage checked, record and details built, the entry written, what waited released. */
import { type ContextAccount, tokensAfter } from "../../core/compaction/breakdown.ts";
import {
  type CompactionFields,
  type CompactionRecord,
  compactionDetails,
} from "../../core/compaction/compaction-record.ts";
import type { CompactionPlan } from "../../core/compaction/plan.ts";
import type { Estimator } from "../../core/compaction/tokens.ts";
import { type CoverageReport, checkCoverage, coverageRanges } from "../../core/coverage/coverage.ts";
import { coverageDetails } from "../../core/coverage/coverage-details.ts";
import { checkProbes, deriveProbes } from "../../core/coverage/coverage-probes.ts";
import type { CompactionEntry, SessionEntry, SystemMessage } from "../../core/session/types.ts";
import { LEAF_MOVED_MESSAGE } from "../../db/append-at-leaf.ts";
import type { CutpointDb } from "../../db/schema.ts";
import { coverageItemsInSlices } from "../common/slices.ts";
import type { DraftTarget } from "./compaction-drafts.ts";
import { confirmCompaction } from "./compaction-runner.ts";
import type { ReviewQueue } from "./review-queue.ts";

/** What the person confirms: the review's draft for its target, on the path it was drawn on. */
export interface ConfirmRequest {
  sessionId: string;
  /** The path the review was drawn on; its last entry is the leaf the write expects. */
  path: readonly SessionEntry[];
  plan: CompactionPlan;
  /** The context as the review counts it, to measure the tokens after. */
  account: ContextAccount;
  estimator: Estimator;
  draft: string;
  target: DraftTarget;
  coverageDismissed: readonly string[];
  /** Outputs masked in this review before Confirm ("mask, then summarize"). */
  maskedInReview: number;
  /** Why the review was opened by the agent (a threshold), null when opened by hand. */
  reason: string | null;
  /** The review's coverage report, when its read of the items finished (else read here, in slices). */
  coverage?: CoverageReport | undefined;
  now?: number;
}

/** What a written Confirm reports. */
export interface Confirmed {
  ok: true;
  entry: CompactionEntry;
  /** The path after the write: what the waiting prompts go on from. */
  path: SessionEntry[];
  tokensBefore: number;
  tokensAfter: number;
}

export type ConfirmOutcome =
  | Confirmed
  | {
      ok: false;
      /** The session moved on since the review was drawn (another tab or a run wrote to it). */
      moved: boolean;
      message: string;
    };

export interface ConfirmDeps {
  db: CutpointDb;
  queue: ReviewQueue;
}

/** The record stored with the entry: who wrote the draft, and how this compaction came. */
export function confirmRecord(
  target: DraftTarget,
  review: { maskedInReview: number; reason: string | null },
): CompactionRecord {
  return {
    model: "",
    ...target.record,
    // Masked first in this review, then summarized: the "mask, then summarize" strategy.
    ...(review.maskedInReview > 0
      ? { trigger: "masking" as const, maskedOutputs: review.maskedInReview }
      : { trigger: review.reason ? ("threshold" as const) : ("manual" as const) }),
  };
}

/** The entry's fields: the draft, the cut, and the details (file lists, coverage, record). */
export function confirmFields(req: ConfirmRequest, report: CoverageReport): CompactionFields {
  const { target } = req;
  return {
    summary: req.draft,
    firstKeptEntryId: target.firstKeptEntryId,
    tokensBefore: target.tokensBefore,
    details: compactionDetails(target, {
      // The probes the review showed: the same derivation from the report's items (dismissed ones left out).
      coverage: coverageDetails(
        report,
        checkProbes(
          req.draft,
          deriveProbes(
            coverageRanges(req.plan),
            report.items.filter((i) => !i.dismissed),
          ),
        ),
      ),
      record: confirmRecord(target, req),
    }),
    ...(target.systemMessage ? { systemMessage: target.systemMessage as SystemMessage } : {}),
    ...(target.usage ? { usage: target.usage } : {}),
  };
}

/**
 * Writes the review's draft as a compaction of `req.plan` at the leaf the review was drawn on,
 * then lets the prompts that waited for the review go on from the new path. `onWritten` hears the
 * write before they go on (the review is reset by then). Nothing is written, and nothing
 * released, when the write is refused.
 */
export async function confirmReview(
  deps: ConfirmDeps,
  req: ConfirmRequest,
  onWritten?: (done: Confirmed) => void,
): Promise<ConfirmOutcome> {
  const leaf = req.path[req.path.length - 1]?.id ?? null;
  // Stored with the entry: what the summary covers (read now when the review had not finished).
  const report =
    req.coverage ??
    checkCoverage(req.draft, (await coverageItemsInSlices(req.plan)) ?? [], {
      dismissed: req.coverageDismissed,
    });
  const r = await confirmCompaction(deps.db, {
    sessionId: req.sessionId,
    parentId: leaf,
    expectedLeafId: leaf,
    fields: confirmFields(req, report),
    takenIds: new Set(req.path.map((e) => e.id)),
    ...(req.now !== undefined ? { now: req.now } : {}),
  });
  if (!r.ok)
    return {
      ok: false,
      moved: r.error.kind === "conflict" && r.error.message === LEAF_MOVED_MESSAGE,
      message: r.error.message,
    };
  const entry = r.value.entry;
  const done: Confirmed = {
    ok: true,
    entry,
    path: [...req.path, entry],
    tokensBefore: req.plan.tokensBefore,
    tokensAfter: tokensAfter(req.plan, req.account, entry.summary, req.estimator).total,
  };
  onWritten?.(done);
  deps.queue.release(req.sessionId, done.path);
  return done;
}
