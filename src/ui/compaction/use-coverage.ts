/**
 * The coverage check of the review's draft: the items of the plan's summarized range, read in
 * the background from the moment the review shows a plan (over several short tasks, so opening
 * the review or moving the cut never waits for them), checked against the draft on every change
 * (cheap), with the person's dismissals.
 */
import { useEffect, useMemo, useState } from "react";
import { type CoverageReport, checkCoverage } from "../../core/compaction/coverage.ts";
import type { CoverageCandidate } from "../../core/compaction/coverage-extract.ts";
import type { CompactionPlan } from "../../core/compaction/plan.ts";
import { coverageItemsInSlices } from "../../services/coverage-slices.ts";

const NONE: readonly CoverageCandidate[] = [];

/** Items by plan object: re-opening or re-rendering the same plan never extracts again. */
const itemsByPlan = new WeakMap<CompactionPlan, CoverageCandidate[]>();

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
  const [, setFound] = useState(0);
  const cached = plan ? itemsByPlan.get(plan) : undefined;
  useEffect(() => {
    if (!plan || itemsByPlan.has(plan)) return;
    // Given up when the plan changes (the cut moved): the next read reuses what this one read.
    const controller = new AbortController();
    void coverageItemsInSlices(plan, controller.signal).then((items) => {
      if (!items) return;
      itemsByPlan.set(plan, items);
      setFound((n) => n + 1);
    });
    return () => controller.abort();
  }, [plan]);
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
