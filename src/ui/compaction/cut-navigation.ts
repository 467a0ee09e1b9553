/**
 * Moving the cut between valid cut points (pure): previous / next, by about N tokens, and
 * snapping a row the pointer is over to the nearest valid point. Cut points are the planner's
 * list (oldest first), each with the tokens it would keep.
 */
import type { CutPointInfo } from "../../core/compaction/cut-points.ts";

/** Position in `points` of the point at path index `index`, or of the first point after it. */
export function rankOf(points: readonly CutPointInfo[], index: number): number {
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (points[mid]!.index < index) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export type CutMove = "prev" | "next" | "page-up" | "page-down" | "first" | "last";

/** The cut point after a move from the current one (at path index `current`); undefined when none. */
export function moveCut(
  points: readonly CutPointInfo[],
  current: number,
  move: CutMove,
  pageTokens = 5000,
): CutPointInfo | undefined {
  if (points.length === 0) return undefined;
  const r = rankOf(points, current);
  const here = points[Math.min(r, points.length - 1)]!;
  const exact = points[r]?.index === current;
  switch (move) {
    case "prev":
      return points[r - 1];
    case "next":
      return points[exact ? r + 1 : r];
    case "first":
      return points[0];
    case "last":
      return points[points.length - 1];
    case "page-up": {
      // Earlier: keeps about pageTokens more.
      const target = here.keptTokens + pageTokens;
      let i = r - 1;
      while (i > 0 && points[i]!.keptTokens < target) i--;
      return points[Math.max(0, i)];
    }
    case "page-down": {
      const target = here.keptTokens - pageTokens;
      let i = exact ? r + 1 : r;
      while (i < points.length - 1 && points[i]!.keptTokens > target) i++;
      return points[Math.min(points.length - 1, i)];
    }
  }
}

/** The valid cut point nearest to a path index (ties go to the later point: keep less). */
export function snapCut(points: readonly CutPointInfo[], index: number): CutPointInfo | undefined {
  if (points.length === 0) return undefined;
  const r = rankOf(points, index);
  const after = points[r];
  const before = points[r - 1];
  if (!after) return before;
  if (!before) return after;
  return index - before.index < after.index - index ? before : after;
}
