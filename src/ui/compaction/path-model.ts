/**
 * The path-dependent part of the compaction model, built once per (path, estimator) and shared by
 * every view of the session (meter, token timeline, preview render apart, each with its own
 * hook): the session's incremental planner set to the path, and the context account (pi 1.6's
 * projection by category) from the path's shared context. `warmPathModel` builds it ahead, in
 * tasks of their own, while a big session opens (src/ui/hooks/warm-session.ts).
 */

import { accountContext, accountContextSteps, type ContextAccount } from "../../core/compaction/breakdown.ts";
import { createPlanner, type Planner } from "../../core/compaction/planner.ts";
import type { Estimator } from "../../core/compaction/tokens.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { weakCache } from "../../core/session/weak-cache.ts";
import { runStepsInSlices, WARM_SLICE_MS } from "../../services/common/yield.ts";
import { sharedSessionContext, warmSessionContext } from "../hooks/session-context.ts";

export interface PathModel {
  planner: Planner;
  path: SessionEntry[];
  /** Bumped whenever the planner's index changes (path or estimator). */
  version: number;
  account: ContextAccount;
}

/** One planner per session, shared by the meter, timeline and preview. */
const planners = new Map<
  string,
  { planner: Planner; estimator: Estimator; path?: SessionEntry[]; version: number }
>();
const models = weakCache<SessionEntry[], Map<Estimator, PathModel>>();
const accounts = weakCache<SessionEntry[], Map<Estimator, ContextAccount>>();
let version = 0;

function plannerFor(sessionId: string, estimator: Estimator) {
  let p = planners.get(sessionId);
  if (!p || p.estimator !== estimator) {
    p = { planner: createPlanner({ estimator }), estimator, version: ++version };
    planners.set(sessionId, p);
  }
  return p;
}

function accountsOf(path: SessionEntry[]): Map<Estimator, ContextAccount> {
  let byEstimator = accounts.get(path);
  if (!byEstimator) {
    byEstimator = new Map();
    accounts.set(path, byEstimator);
  }
  return byEstimator;
}

/** The context account of a path (cached). */
export function pathAccount(path: SessionEntry[], estimator: Estimator): ContextAccount {
  const byEstimator = accountsOf(path);
  let account = byEstimator.get(estimator);
  if (!account) {
    account = accountContext(path, estimator, sharedSessionContext(path));
    byEstimator.set(estimator, account);
  }
  return account;
}

/** `pathAccount`, built ahead in slices of WARM_SLICE_MS (a 100k-entry path's took up to ~150 ms at once). */
async function warmPathAccount(path: SessionEntry[], estimator: Estimator): Promise<void> {
  if (accountsOf(path).has(estimator)) return;
  const account = await runStepsInSlices(
    accountContextSteps(path, estimator, sharedSessionContext(path)),
    WARM_SLICE_MS,
  );
  const byEstimator = accountsOf(path);
  if (!byEstimator.has(estimator)) byEstimator.set(estimator, account);
}

/** The planner of `sessionId` set to `path` (its index is extended, not rebuilt, when it can be). */
function setPlannerPath(sessionId: string, path: SessionEntry[], estimator: Estimator) {
  const p = plannerFor(sessionId, estimator);
  if (p.path !== path) {
    p.planner.setPath(path);
    p.path = path;
    p.version = ++version;
  }
  return p;
}

/** The shared path model of a session's path (see the module comment). */
export function pathModel(sessionId: string, path: SessionEntry[], estimator: Estimator): PathModel {
  let byEstimator = models.get(path);
  if (!byEstimator) {
    byEstimator = new Map();
    models.set(path, byEstimator);
  }
  const { planner, version: current } = setPlannerPath(sessionId, path, estimator);
  let model = byEstimator.get(estimator);
  if (!model || model.planner !== planner || model.version !== current) {
    model = { planner, path, version: current, account: pathAccount(path, estimator) };
    byEstimator.set(estimator, model);
  }
  return model;
}

/**
 * Builds the path model ahead, one part per call of `step` (each a task of its own): the context,
 * the account, the planner's index. Resolves when all is built.
 */
export async function warmPathModel(
  sessionId: string,
  path: SessionEntry[],
  estimator: Estimator,
  step: (part: string) => Promise<void>,
): Promise<void> {
  await warmSessionContext(path);
  await step("context");
  await warmPathAccount(path, estimator);
  await step("account");
  const { planner } = setPlannerPath(sessionId, path, estimator);
  await step("planner");
  // The planner's lazy per-entry projection (what the first plan would compute), in slices.
  for (let done = false; !done; ) {
    const until = performance.now() + WARM_SLICE_MS;
    do done = planner.prepare(1024);
    while (!done && performance.now() < until);
    await step("planner");
  }
  pathModel(sessionId, path, estimator);
}
