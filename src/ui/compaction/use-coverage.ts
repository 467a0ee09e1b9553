/**
 * The coverage check of the review's draft: the items of the plan's summarized range, read in
 * the page's idle time from the moment the token timeline or the review shows a plan (so that
 * opening the review or moving the cut never waits for them, and the items are usually there
 * before a draft is), checked against the draft on every change (cheap), with the person's
 * dismissals.
 */
import { useEffect, useMemo, useState } from "react";
import type { CompactionPlan } from "../../core/compaction/plan.ts";
import { type CoverageReport, checkCoverage } from "../../core/coverage/coverage.ts";
import type { CoverageCandidate } from "../../core/coverage/coverage-extract.ts";
import { coverageItemsInSlices } from "../../services/common/slices.ts";

const NONE: readonly CoverageCandidate[] = [];

/** Items by plan object: re-opening or re-rendering the same plan never extracts again. */
const itemsByPlan = new WeakMap<CompactionPlan, CoverageCandidate[]>();

/** A read under way, shared by the views that show its plan; given up when none shows it any more. */
interface Read {
  done: Promise<CoverageCandidate[] | undefined>;
  controller: AbortController;
  users: number;
}
const reads = new WeakMap<CompactionPlan, Read>();

function joinRead(plan: CompactionPlan): Read {
  let read = reads.get(plan);
  if (!read) {
    const controller = new AbortController();
    const start = performance.now();
    const done = coverageItemsInSlices(plan, { signal: controller.signal, idle: true }).then((items) => {
      if (items) {
        // From the plan to its items, in idle slices (the compaction-ui bench reports it).
        performance.measure("cutpoint:coverage-items", { start });
        itemsByPlan.set(plan, items);
      }
      return items;
    });
    read = { done, controller, users: 0 };
    reads.set(plan, read);
  }
  read.users++;
  return read;
}

function leaveRead(plan: CompactionPlan, read: Read): void {
  if (--read.users > 0) return;
  reads.delete(plan);
  // Given up (the cut moved, the panel closed): the next read reuses what this one read.
  if (!itemsByPlan.has(plan)) read.controller.abort();
}

/**
 * The plan's items once read (undefined meanwhile). `rerender`: render again when they arrive
 * (the token timeline only starts the read, and never re-renders for it).
 */
export function useCoverageItems(
  plan: CompactionPlan | undefined,
  rerender = true,
): readonly CoverageCandidate[] | undefined {
  const [, setFound] = useState(0);
  useEffect(() => {
    if (!plan || itemsByPlan.has(plan)) return;
    const read = joinRead(plan);
    let live = true;
    if (rerender)
      void read.done.then((items) => {
        if (live && items) setFound((n) => n + 1);
      });
    return () => {
      live = false;
      leaveRead(plan, read);
    };
  }, [plan, rerender]);
  return plan ? itemsByPlan.get(plan) : undefined;
}

export interface CoverageState {
  /** Undefined while the items are being found, or without a draft. */
  report: CoverageReport | undefined;
  items: readonly CoverageCandidate[] | undefined;
}

export function useCoverage(
  plan: CompactionPlan | undefined,
  /** Undefined: no draft yet (the items are still read ahead). */
  draft: string | undefined,
  dismissed: readonly string[],
  /** Items from elsewhere ("Check with model"), merged in when not already found. */
  extra: readonly CoverageCandidate[] = NONE,
): CoverageState {
  const cached = useCoverageItems(plan);
  const merged = useMemo(() => {
    if (!cached || extra.length === 0) return cached;
    const keys = new Set(cached.map((i) => i.key));
    return [...cached, ...extra.filter((i) => !keys.has(i.key))];
  }, [cached, extra]);
  const report = useMemo(
    () => (merged && draft !== undefined ? checkCoverage(draft, merged, { dismissed }) : undefined),
    [merged, draft, dismissed],
  );
  return { report, items: merged };
}
