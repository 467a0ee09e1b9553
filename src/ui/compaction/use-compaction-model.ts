/**
 * Everything the meter, timeline and preview derive from the open session: the current path,
 * an incremental planner (re-planning is O(log n), so moving the cut repaints within a frame),
 * the settings (live from Dexie), the context window and threshold, the context size and the
 * current plan. One model per session view, shared through React context.
 */
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useMemo, useState } from "react";
import { triggerThreshold } from "../../core/compaction/decide.ts";
import type { CompactionPlan, PlanFailureCode } from "../../core/compaction/plan.ts";
import { createPlanner, type Planner } from "../../core/compaction/planner.ts";
import { type Estimator, PI_ESTIMATOR } from "../../core/compaction/tokens.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { db } from "../../db/instance.ts";
import {
  modelLimits,
  normalizeProviderSettings,
  PROVIDER_SETTINGS_KEY,
  type ProviderSettings,
} from "../../services/agent-settings.ts";
import {
  COMPACTION_SETTINGS_KEY,
  type CompactionUserSettings,
  normalizeSettings,
} from "../../services/compaction-settings.ts";
import { useCompactionStore } from "../../store/compaction-store.ts";
import { useCurrentSession } from "../hooks/current-session.tsx";
import { sessionPath } from "../tree/tree-model.ts";

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
  settings: CompactionUserSettings;
  provider: ProviderSettings;
  /** The session's model (last model on the path, else the default). */
  modelId: string;
  contextWindow: number;
  windowSource: "setting" | "model";
  reserveTokens: number;
  keepRecentTokens: number;
  threshold: number;
  context: { tokens: number; source: "reported" | "estimated" };
  estimatorId: string;
  plan: PlanState;
  /** Path index of the latest compaction, -1 when none. */
  lastCompaction: number;
  /** Path index where the model's context starts (entries before it are outside). */
  windowStart: number;
}

/** The latest model on the path: a model_change entry or an assistant message's model. */
export function pathModel(path: readonly SessionEntry[]): { provider: string; modelId: string } | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const e = path[i]! as Record<string, unknown>;
    if (e.type === "model_change" && typeof e.modelId === "string")
      return { provider: String(e.provider ?? ""), modelId: e.modelId };
    if (e.type === "message") {
      const m = e.message as Record<string, unknown> | undefined;
      if (m?.role === "assistant" && typeof m.model === "string")
        return { provider: String(m.provider ?? ""), modelId: m.model };
    }
  }
  return undefined;
}

/** One planner per session, shared by the meter, timeline and preview (slots render apart). */
const planners = new Map<string, { planner: Planner; estimator: Estimator }>();
/** The current path of a loaded session, computed once per loaded object. */
const paths = new WeakMap<object, SessionEntry[]>();
let version = 0;

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

function useBuildModel(sessionId: string): CompactionModel | undefined {
  const { loaded } = useCurrentSession();
  const rawSettings = useLiveQuery(() => db.settings.get(COMPACTION_SETTINGS_KEY), [], undefined);
  const rawProvider = useLiveQuery(() => db.settings.get(PROVIDER_SETTINGS_KEY), [], undefined);
  const settings = useMemo(() => normalizeSettings(rawSettings?.value), [rawSettings]);
  const provider = useMemo(() => normalizeProviderSettings(rawProvider?.value), [rawProvider]);
  const keepOverride = useCompactionStore((s) => s.keepRecentOverride);
  const cutEntryId = useCompactionStore((s) => s.cutEntryId);
  const path = useMemo(
    () => (loaded && loaded.id === sessionId ? sharedPath(loaded) : undefined),
    [loaded, sessionId],
  );
  const modelId = useMemo(
    () => (path ? (pathModel(path)?.modelId ?? provider.model) : provider.model),
    [path, provider],
  );
  const estimator = useEstimator(settings.estimator, modelId);
  const indexed = useMemo(() => {
    if (!path) return undefined;
    let p = planners.get(sessionId);
    if (!p || p.estimator !== estimator) {
      p = { planner: createPlanner({ estimator }), estimator };
      planners.set(sessionId, p);
    }
    p.planner.setPath(path);
    return { planner: p.planner, path, version: ++version };
  }, [path, estimator, sessionId]);

  return useMemo(() => {
    if (!indexed) return undefined;
    const { planner, path: p } = indexed;
    const limits = modelLimits(provider, modelId);
    const contextWindow = settings.contextWindow ?? limits.contextWindow;
    const keepRecentTokens = keepOverride ?? settings.keepRecentTokens;
    const reserveTokens = settings.reserveTokens;
    const planSettings = { keepRecentTokens, reserveTokens };
    let r = planner.plan(planSettings, cutEntryId ? { cutEntryId } : {});
    // A hand-picked cut that is no longer valid (the path changed) falls back to the automatic cut.
    if (!r.ok && r.code === "invalid-cut") r = planner.plan(planSettings);
    const plan: PlanState = r.ok
      ? { ok: true, plan: r.plan }
      : { ok: false, plan: r.plan, code: r.code, reason: r.reason };
    let lastCompaction = -1;
    for (let i = p.length - 1; i >= 0; i--)
      if (p[i]!.type === "compaction") {
        lastCompaction = i;
        break;
      }
    return {
      sessionId,
      path: p,
      planner,
      version: indexed.version,
      settings,
      provider,
      modelId,
      contextWindow,
      windowSource: settings.contextWindow !== null ? "setting" : "model",
      reserveTokens,
      keepRecentTokens,
      threshold: triggerThreshold(contextWindow, reserveTokens, settings.trigger),
      context: planner.contextTokens(),
      estimatorId: planner.estimator.id,
      plan,
      lastCompaction,
      windowStart: plan.plan?.windowStart ?? 0,
    } satisfies CompactionModel;
  }, [indexed, settings, provider, modelId, keepOverride, cutEntryId, sessionId]);
}

/** The compaction model of the open session (shared planner and path per session). */
export function useCompactionModel(sessionId: string): CompactionModel | undefined {
  return useBuildModel(sessionId);
}
