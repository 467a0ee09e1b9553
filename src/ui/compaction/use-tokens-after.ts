/** The plan's "after", one figure for the review and the cut handle: the summary at its typical size until a draft exists, then the draft's size. */
import { useMemo } from "react";
import { type TokensAfter, tokensAfter } from "../../core/compaction/breakdown.ts";
import { useSessionCompaction } from "../../store/compaction-store.ts";
import type { CompactionModel } from "./use-compaction-model.ts";

export function useTokensAfter(model: CompactionModel): TokensAfter | undefined {
  const plan = model.plan.ok ? model.plan.plan : undefined;
  const draft = useSessionCompaction(model.sessionId, (s) =>
    (s.status === "ready" || s.status === "generating") && s.draft.trim() !== "" ? s.draft : undefined,
  );
  return useMemo(
    () => (plan ? tokensAfter(plan, model.account, draft, model.planner.estimator) : undefined),
    [plan, model.account, model.planner, draft],
  );
}
