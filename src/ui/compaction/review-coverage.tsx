/**
 * The review's coverage section: the draft checked against the items of the plan's summarized
 * range (read ahead from the moment the review shows a plan, shown once a draft exists), the person's adds and dismissals (kept with the session's
 * review), "Check with model" when a summarizer is set up, and the probes (questions the range
 * answers) beside it. Its latest report is handed to Confirm through `reportRef`.
 */
import { type MutableRefObject, useEffect, useMemo, useState } from "react";
import type { CompactionPlan } from "../../core/compaction/plan.ts";
import { type CoverageReport, coverageRanges } from "../../core/coverage/coverage.ts";
import { addItemsToSummary, addItemToSummary } from "../../core/coverage/coverage-add.ts";
import type { CoverageCandidate } from "../../core/coverage/coverage-extract.ts";
import { checkProbes, deriveProbes } from "../../core/coverage/coverage-probes.ts";
import { checkCoverageWithModel } from "../../services/compaction/coverage-check-service.ts";
import { appSummarizer } from "../../services/compaction/summarizer-instance.ts";
import { useCompactionStore, useSessionCompaction } from "../../store/compaction-store.ts";
import { CoveragePanel, type ModelCheckState } from "./coverage-panel.tsx";
import { plural } from "./format-tokens.ts";
import { ProbesPanel } from "./probes-panel.tsx";
import type { CompactionModel } from "./use-compaction-model.ts";
import { useCoverage } from "./use-coverage.ts";

export function ReviewCoverage({
  model,
  plan,
  reportRef,
  shown,
}: {
  model: CompactionModel;
  plan: CompactionPlan;
  reportRef: MutableRefObject<CoverageReport | undefined>;
  /** False while there is no draft to check: the items are read, nothing is shown. */
  shown: boolean;
}) {
  const sessionId = model.sessionId;
  const draft = useSessionCompaction(sessionId, (x) => x.draft);
  const dismissed = useSessionCompaction(sessionId, (x) => x.coverageDismissed);
  const chosen = useSessionCompaction(sessionId, (x) => x.summarizerModel);
  const patch = (p: Parameters<ReturnType<typeof useCompactionStore.getState>["patch"]>[1]) =>
    useCompactionStore.getState().patch(sessionId, p);
  const [modelItems, setModelItems] = useState<CoverageCandidate[]>([]);
  const [check, setCheck] = useState<Omit<ModelCheckState, "run">>({ status: "idle", message: null });
  const coverage = useCoverage(plan, shown ? draft : undefined, dismissed, modelItems);
  // The probes read the range's items and its last messages: once per plan, checked on each draft.
  const found = coverage.items;
  // A dismissed file or rule is not asked about either.
  const probes = useMemo(
    () =>
      found
        ? deriveProbes(
            coverageRanges(plan),
            found.filter((i) => !dismissed.includes(i.key)),
          )
        : undefined,
    [plan, found, dismissed],
  );
  const probeReport = useMemo(
    () => (probes && shown ? checkProbes(draft, probes) : undefined),
    [probes, draft, shown],
  );
  // Confirm reads the latest report (set after each commit, not during render).
  useEffect(() => {
    reportRef.current = coverage.report;
  }, [reportRef, coverage.report]);
  if (!shown) return null;

  const runModelCheck = async () => {
    setCheck({ status: "asking", message: null });
    const resolved = await appSummarizer.resolve(model.path, chosen);
    if (!resolved.ok) {
      setCheck({ status: "failed", message: resolved.reason });
      return;
    }
    const r = await checkCoverageWithModel({
      ranges: coverageRanges(plan),
      summary: draft,
      endpoint: resolved.endpoint,
      signal: new AbortController().signal,
    });
    if (!r.ok) {
      setCheck({ status: "failed", message: `The check failed: ${r.error}` });
      return;
    }
    setModelItems(r.items);
    const who = resolved.endpoint.model;
    setCheck({
      status: "done",
      message:
        r.items.length === 0
          ? `${who} finds all ${plural(r.asked, "request")} covered.`
          : `${who} finds ${plural(r.items.length, "request")} of ${r.asked} not covered: listed under To-dos.`,
    });
  };

  return (
    <>
      <ProbesPanel report={probeReport} />
      <CoveragePanel
        report={coverage.report}
        modelCheck={model.summarizerModel !== "" ? { ...check, run: () => void runModelCheck() } : undefined}
        onAdd={(i) => patch({ draft: addItemToSummary(draft, i) })}
        onAddAll={(list) => patch({ draft: addItemsToSummary(draft, list) })}
        onDismiss={(i) => patch({ coverageDismissed: [...dismissed, i.key] })}
        onRestore={(i) => patch({ coverageDismissed: dismissed.filter((k) => k !== i.key) })}
      />
    </>
  );
}
