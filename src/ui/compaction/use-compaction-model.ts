/**
 * Everything the meter, timeline and preview derive from the open session: the current path,
 * an incremental planner (re-planning is O(log n), so moving the cut repaints within a frame),
 * the settings (live, from services), the context window and threshold, the context size and the
 * current plan. One model per session view, shared through React context.
 */

import { useEffect, useMemo, useState } from "react";
import type { ContextAccount } from "../../core/compaction/breakdown.ts";
import type { ModelFit } from "../../core/compaction/model-fit.ts";
import type { CompactionPlan, ContextSize, PlanFailureCode } from "../../core/compaction/plan.ts";
import type { Planner } from "../../core/compaction/planner.ts";
import { type Estimator, PI_ESTIMATOR } from "../../core/compaction/tokens.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import {
  modelLimits,
  normalizeProviderSettings,
  PROVIDER_SETTINGS_KEY,
  type ProviderSettings,
} from "../../services/agent/agent-settings.ts";
import { watchSetting } from "../../services/common/settings-instance.ts";
import { chooseSummarizerModel, modelOnPath } from "../../services/compaction/compaction-endpoint.ts";
import { fitSettings, typicalStartTokens } from "../../services/compaction/compaction-fit.ts";
import {
  COMPACTION_SETTINGS_KEY,
  type CompactionUserSettings,
  normalizeSettings,
  readSessionOverride,
  sessionSettingsKey,
  withSessionOverride,
} from "../../services/compaction/compaction-settings.ts";
import { useSessionCompaction } from "../../store/compaction-store.ts";
import { useLive } from "../data/use-live.ts";
import { useCurrentSession } from "../hooks/current-session.tsx";
import { usePathWarming } from "../hooks/warm-session.ts";
import { sessionPath } from "../tree/tree-model.ts";
import { pathModel as sharedPathModel } from "./path-model.ts";

export interface PlanState {
  ok: boolean;
  plan: CompactionPlan | undefined;
  code?: PlanFailureCode;
  reason?: string;
}

export interface CompactionModel {
  sessionId: string;
  path: SessionEntry[];
  planner: Planner;
  /** Bumped whenever the planner's index changes (path or estimator). */
  version: number;
  /** The settings for all sessions with this session's own mode and trigger over them. */
  settings: CompactionUserSettings;
  /** Reserve, keep-recent and threshold fitted to the model, and what does not fit (with fixes). */
  fit: ModelFit;
  /** True when this session has its own mode or trigger. */
  sessionOverride: boolean;
  provider: ProviderSettings;
  /** The session's model (last model on the path, else the default). */
  modelId: string;
  contextWindow: number;
  /** Where the window comes from: Cutpoint's compaction setting, pi's models.json, or the model's own figure. */
  windowSource: "setting" | "pi" | "model";
  /** Whether the reserve is the model's own from pi's settings.json (compaction.modelOverrides). */
  reserveFromPi: boolean;
  reserveTokens: number;
  keepRecentTokens: number;
  threshold: number;
  context: ContextSize;
  /** The context by category and the rows in it (pi 1.6's projection): one source for every view. */
  account: ContextAccount;
  /** The model that writes the summary (what the request and the cost use), "" when none. */
  summarizerModel: string;
  estimatorId: string;
  plan: PlanState;
  /**
   * Why "Compact…" is disabled, or null: only when no cut at all would summarize anything (the
   * review can lower keep-recent, so a plan that fails at the current keep does not block it).
   */
  blocker: string | null;
  /** Path index of the latest compaction, -1 when none. */
  lastCompaction: number;
  /** Path index where the model's context starts (entries before it are outside). */
  windowStart: number;
}

/** The latest model on the path (one rule, services/compaction/compaction-endpoint.ts). */
export const pathModel = modelOnPath;

/** The current path of a loaded session, computed once per loaded object. */
const paths = new WeakMap<object, SessionEntry[]>();

function sharedPath(loaded: { entries: SessionEntry[] }): SessionEntry[] {
  let p = paths.get(loaded);
  if (!p) {
    p = sessionPath(loaded.entries);
    paths.set(loaded, p);
  }
  return p;
}

function useEstimator(choice: "pi" | "tokenizer", modelId: string): Estimator {
  const [estimator, setEstimator] = useState<Estimator>(PI_ESTIMATOR);
  useEffect(() => {
    if (choice === "pi") {
      setEstimator(PI_ESTIMATOR);
      return;
    }
    let live = true;
    void import("../../core/compaction/tokenizer-estimator.ts")
      .then((m) => m.loadTokenizerEstimator(modelId))
      .then((r) => {
        if (live && r.ok) setEstimator(r.value);
      });
    return () => {
      live = false;
    };
  }, [choice, modelId]);
  return estimator;
}

/** The session's path indexed with the chosen estimator, and the settings it is planned with. */
function useIndexedPath(sessionId: string) {
  const { loaded } = useCurrentSession();
  const rawSettings = useLive(() => watchSetting(COMPACTION_SETTINGS_KEY), []);
  const rawProvider = useLive(() => watchSetting(PROVIDER_SETTINGS_KEY), []);
  const rawOverride = useLive(() => watchSetting(sessionSettingsKey(sessionId)), [sessionId]);
  const override = useMemo(() => readSessionOverride(rawOverride), [rawOverride]);
  const settings = useMemo(
    () => withSessionOverride(normalizeSettings(rawSettings), override),
    [rawSettings, override],
  );
  const provider = useMemo(() => normalizeProviderSettings(rawProvider), [rawProvider]);
  const path = useMemo(
    () => (loaded && loaded.id === sessionId ? sharedPath(loaded) : undefined),
    [loaded, sessionId],
  );
  const modelId = useMemo(
    () => (path ? (pathModel(path)?.modelId ?? provider.model) : provider.model),
    [path, provider],
  );
  const estimator = useEstimator(settings.estimator, modelId);
  // Being built ahead in tasks of their own (a session just opened): not here in one long task.
  const warming = usePathWarming(path);
  const indexed = useMemo(
    () => (path && !warming ? sharedPathModel(sessionId, path, estimator) : undefined),
    [path, estimator, sessionId, warming],
  );
  return { indexed, settings, override, provider, modelId };
}

/** The context's size and parts alone (what the meter counts), for a view that plans nothing. */
export function useContextSize(
  sessionId: string,
): { context: ContextSize; account: ContextAccount; estimatorId: string } | undefined {
  const { indexed } = useIndexedPath(sessionId);
  return useMemo(
    () =>
      indexed
        ? {
            context: indexed.planner.contextTokens(),
            account: indexed.account,
            estimatorId: indexed.planner.estimator.id,
          }
        : undefined,
    [indexed],
  );
}

function useBuildModel(sessionId: string): CompactionModel | undefined {
  const { indexed, settings, override, provider, modelId } = useIndexedPath(sessionId);
  const keepOverride = useSessionCompaction(sessionId, (s) => s.keepRecentOverride);
  const cutEntryId = useSessionCompaction(sessionId, (s) => s.cutEntryId);
  const chosenSummarizer = useSessionCompaction(sessionId, (s) => s.summarizerModel);

  return useMemo(() => {
    if (!indexed) return undefined;
    const { planner, path: p } = indexed;
    const limits = modelLimits(provider, modelId);
    const { account } = indexed;
    const start = account.parts.systemPrompt + account.parts.tools || typicalStartTokens();
    const fitted = fitSettings(settings, limits, start);
    const { contextWindow } = fitted;
    const keepRecentTokens = keepOverride ?? fitted.settings.keepRecentTokens;
    const reserveTokens = fitted.settings.reserveTokens;
    const planSettings = { keepRecentTokens, reserveTokens };
    let r = planner.plan(planSettings, cutEntryId ? { cutEntryId } : {});
    // A hand-picked cut that is no longer valid (the path changed) falls back to the automatic cut.
    if (!r.ok && r.code === "invalid-cut") r = planner.plan(planSettings);
    const plan: PlanState = r.ok
      ? { ok: true, plan: r.plan }
      : { ok: false, plan: r.plan, code: r.code, reason: r.reason };
    const blocker =
      r.ok || planner.plan({ keepRecentTokens: 0, reserveTokens }).ok
        ? null
        : (r.reason ?? "Nothing to compact.");
    return {
      sessionId,
      path: p,
      planner,
      version: indexed.version,
      settings,
      fit: fitted.fit,
      sessionOverride: Object.keys(override).length > 0,
      provider,
      modelId,
      contextWindow,
      windowSource:
        settings.contextWindow !== null
          ? "setting"
          : limits.fromPi.includes("contextWindow")
            ? "pi"
            : "model",
      reserveFromPi: limits.reserveTokens !== undefined && limits.fromPi.includes("reserveTokens"),
      reserveTokens,
      keepRecentTokens,
      threshold: fitted.fit.threshold,
      context: planner.contextTokens(),
      account,
      summarizerModel: chooseSummarizerModel(provider, settings, p, chosenSummarizer),
      estimatorId: planner.estimator.id,
      plan,
      blocker,
      lastCompaction: account.lastCompaction,
      // From the context itself: right also when nothing can be planned (the last entry is a compaction).
      windowStart: account.windowStart,
    } satisfies CompactionModel;
  }, [indexed, settings, override, provider, modelId, keepOverride, cutEntryId, chosenSummarizer, sessionId]);
}

/** The compaction model of the open session (shared planner and path per session). */
export function useCompactionModel(sessionId: string): CompactionModel | undefined {
  return useBuildModel(sessionId);
}
