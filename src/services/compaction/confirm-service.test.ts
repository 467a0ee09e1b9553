/**
 * Unit tests of Confirm as one service call: it writes the entry with its coverage and record,
 * releases what waited for the review (after `onWritten`), and on a refused write writes and
 * releases nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accountContext } from "../../core/compaction/breakdown.ts";
import { readCompactionRecord } from "../../core/compaction/compaction-record.ts";
import { type CompactionPlan, planCompaction } from "../../core/compaction/plan.ts";
import { PI_ESTIMATOR } from "../../core/compaction/tokens.ts";
import { msg, user } from "../../core/session/test-builders.ts";
import { currentPath } from "../../core/session/tree.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import type { CutpointDb } from "../../db/schema.ts";
import { appendEntries, readEntries } from "../../db/sessions-repo.ts";
import { fixtureDb } from "../../test-support/fixture-db.ts";
import { type ConfirmRequest, confirmReview } from "./confirm-service.ts";
import { createReviewQueue, type ReviewQueue } from "./review-queue.ts";

let db: CutpointDb;
let sessionId: string;
let path: SessionEntry[];
let plan: CompactionPlan;
let queue: ReviewQueue;

beforeEach(async () => {
  let entries: SessionEntry[];
  ({ db, sessionId, entries } = await fixtureDb("confirm-service"));
  path = currentPath(entries);
  const r = planCompaction(path, { reserveTokens: 16384, keepRecentTokens: 20000 });
  if (!r.ok) throw new Error(r.reason);
  plan = r.plan;
  queue = createReviewQueue();
});
afterEach(() => db.close());

function request(over: Partial<ConfirmRequest> = {}): ConfirmRequest {
  return {
    sessionId,
    path,
    plan,
    account: accountContext(path),
    estimator: PI_ESTIMATOR,
    draft: "## Goal\nKeep the parser working.",
    target: {
      firstKeptEntryId: plan.firstKeptEntryId,
      tokensBefore: plan.tokensBefore,
      readFiles: ["src/a.ts"],
      modifiedFiles: [],
      record: { model: "m1", durationMs: 1200 },
    },
    coverageDismissed: [],
    maskedInReview: 0,
    reason: null,
    now: 1_700_000_000_000,
    ...over,
  };
}

describe("confirmReview", () => {
  it("writes the compaction at the leaf with its file lists, coverage and record, and measures the tokens after", async () => {
    const r = await confirmReview({ db, queue }, request());
    if (!r.ok) throw new Error(r.message);
    const stored = await readEntries(db, sessionId);
    const entry = stored.find((e) => e.id === r.entry.id);
    expect(entry?.type).toBe("compaction");
    expect(r.entry.parentId).toBe(path.at(-1)!.id);
    expect(r.entry.firstKeptEntryId).toBe(plan.firstKeptEntryId);
    expect(r.path).toEqual([...path, r.entry]);
    const details = r.entry.details as Record<string, unknown>;
    expect(details.readFiles).toEqual(["src/a.ts"]);
    expect(details.coverage).toBeDefined();
    expect(readCompactionRecord(details)).toMatchObject({ model: "m1", trigger: "manual" });
    expect(r.tokensBefore).toBe(plan.tokensBefore);
    expect(r.tokensAfter).toBeLessThan(r.tokensBefore);
  });

  it("records the trigger: masking when outputs were masked in the review, threshold when the agent asked", async () => {
    const masked = await confirmReview({ db, queue }, request({ maskedInReview: 3 }));
    if (!masked.ok) throw new Error(masked.message);
    expect(readCompactionRecord(masked.entry.details)).toMatchObject({
      trigger: "masking",
      maskedOutputs: 3,
    });
    const again = currentPath(await readEntries(db, sessionId));
    const asked = await confirmReview({ db, queue }, request({ path: again, reason: "Context past 80 %" }));
    if (!asked.ok) throw new Error(asked.message);
    expect(readCompactionRecord(asked.entry.details)).toMatchObject({ trigger: "threshold" });
  });

  it("releases what waits for the review with the new path, after onWritten", async () => {
    const heard: string[] = [];
    const waiting = queue.waitFor(sessionId).then((p) => {
      heard.push("released");
      return p;
    });
    queue.onDecided((id) => heard.push(`decided ${id}`));
    const r = await confirmReview({ db, queue }, request(), () => heard.push("written"));
    if (!r.ok) throw new Error(r.message);
    expect(await waiting).toEqual(r.path);
    expect(heard).toEqual(["written", `decided ${sessionId}`, "released"]);
    expect(queue.takeSkip(sessionId)).toBe(false);
  });

  it("refuses when the session moved on since the review was drawn: nothing written, nothing released", async () => {
    const leaf = path.at(-1)!.id;
    const appended = await appendEntries(db, sessionId, [msg("moved-on", leaf, user("meanwhile"))]);
    expect(appended.ok).toBe(true);
    const before = (await readEntries(db, sessionId)).length;
    let released = false;
    void queue.waitFor(sessionId).then(() => {
      released = true;
    });
    let written = false;
    const r = await confirmReview({ db, queue }, request(), () => {
      written = true;
    });
    expect(r).toMatchObject({ ok: false, moved: true });
    expect((await readEntries(db, sessionId)).length).toBe(before);
    await Promise.resolve();
    expect({ written, released }).toEqual({ written: false, released: false });
  });

  it("refuses an empty summary, and says it was not a move", async () => {
    const before = (await readEntries(db, sessionId)).length;
    const r = await confirmReview({ db, queue }, request({ draft: "   " }));
    expect(r).toMatchObject({ ok: false, moved: false });
    expect((await readEntries(db, sessionId)).length).toBe(before);
  });
});
