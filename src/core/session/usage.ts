/** Usage values (pi's shape: tokens and their cost): an empty one, and the sum of two. */
import type { Usage } from "./types.ts";

/** An all-zero usage (nothing reported yet, or an offline summary). */
export function emptyUsage(): Usage {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

const n = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : 0);

/** The sum of two usages (e.g. a split turn's two summary requests). */
export function addUsage(a: Usage, b: Usage | undefined): Usage {
  if (!b) return a;
  return {
    input: n(a.input) + n(b.input),
    output: n(a.output) + n(b.output),
    cacheRead: n(a.cacheRead) + n(b.cacheRead),
    cacheWrite: n(a.cacheWrite) + n(b.cacheWrite),
    totalTokens: n(a.totalTokens) + n(b.totalTokens),
    cost: {
      input: n(a.cost?.input) + n(b.cost?.input),
      output: n(a.cost?.output) + n(b.cost?.output),
      cacheRead: n(a.cost?.cacheRead) + n(b.cost?.cacheRead),
      cacheWrite: n(a.cost?.cacheWrite) + n(b.cost?.cacheWrite),
      total: n(a.cost?.total) + n(b.cost?.total),
    },
  };
}
