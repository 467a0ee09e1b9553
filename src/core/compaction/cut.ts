/**
 * pi 1.6's cut rules on a PathIndex (docs/session-format.md §7): the automatic cut, the step back
 * over entries the model does not see, the recovery-omission rule and the split turn.
 */
import { ABSENT, CUT, OMITTED, type PathIndex, TURN, VISIBLE } from "./path-index.ts";

/** The cut inside [windowStart, end): first kept index, split turn and turn start. */
export interface CutResult {
  firstKeptIndex: number;
  turnStartIndex: number;
  isSplitTurn: boolean;
}

/** The first index >= i that is in the projection (-1: none before the end). */
export function nextPresent(index: PathIndex, i: number): number {
  for (let j = i; j < index.length; j++) if (!(index.flags[j]! & ABSENT)) return j;
  return -1;
}

/**
 * §7 step back: from the cut, over the entries directly before it that the model does not see,
 * stopping after an entry it sees, an older compaction, or at the window start. Entries that are
 * not in the projection are passed over and never become the cut.
 */
export function stepBack(index: PathIndex, cut: number, windowStart: number): number {
  if (cut <= windowStart) return cut;
  index.ensure();
  const stop = index.lastStop[cut - 1]!;
  const from = Math.max(windowStart, stop + 1);
  const landed = nextPresent(index, from);
  return landed >= 0 && landed < cut ? landed : cut;
}

/** §7 split turn: a first kept entry that starts a turn is a clean cut; else the turn that holds it is split. */
export function splitAt(index: PathIndex, firstKept: number, windowStart: number): CutResult {
  index.ensure();
  if (index.flags[firstKept]! & TURN)
    return { firstKeptIndex: firstKept, turnStartIndex: -1, isSplitTurn: false };
  const t = index.lastTurnStart[firstKept] ?? -1;
  const turnStart = t >= windowStart ? t : -1;
  return { firstKeptIndex: firstKept, turnStartIndex: turnStart, isSplitTurn: turnStart !== -1 };
}

/**
 * §7 recovery omission: after a failed attempt hidden by omission edits, everything after the cut
 * is either invisible to the model or omitted (an omitted assistant reply among them, no edit that
 * replaces something else, no compaction): the cut then moves past the unsent attempt.
 */
function isRecoveryOmissionSuffix(index: PathIndex, cut: number): boolean {
  const omitted = new Set<string>();
  const replaced: string[] = [];
  let omittedReply = false;
  for (let j = cut + 1; j < index.length; j++) {
    const f = index.flags[j]!;
    if (f & ABSENT) continue;
    const e = index.entries[j]!;
    if (e.type === "compaction") return false;
    if (f & VISIBLE && !(f & OMITTED)) return false;
    if (f & OMITTED) {
      omitted.add(e.id);
      if ((e as { message?: { role?: unknown } }).message?.role === "assistant") omittedReply = true;
    }
    if (e.type === "context_edit") {
      const edit = e as { targetId?: unknown; replacement?: unknown };
      if (edit.replacement !== null && typeof edit.targetId === "string") replaced.push(edit.targetId);
    }
  }
  return omittedReply && replaced.every((id) => omitted.has(id));
}

/**
 * §7 automatic cut: walk from the newest entry summing what the model sees; at the entry where
 * the sum reaches `keep`, cut at the first valid cut point at or after it (the last one when none
 * follows); when the sum never reaches it, at the first valid cut point of the window.
 */
export function findCut(index: PathIndex, windowStart: number, keep: number): CutResult | undefined {
  const firstCut = index.nextCutPoint(windowStart);
  if (firstCut < 0) {
    const start = nextPresent(index, windowStart);
    return start < 0 ? undefined : { firstKeptIndex: start, turnStartIndex: -1, isSplitTurn: false };
  }
  let cut = firstCut;
  const at = index.thresholdEntry(windowStart, keep);
  if (at >= 0) {
    const next = index.nextCutPoint(at);
    cut = next >= 0 ? next : index.lastCutPoint();
    if (isRecoveryOmissionSuffix(index, cut)) cut = nextPresent(index, cut + 1);
  }
  return splitAt(index, stepBack(index, cut, windowStart), windowStart);
}

/** Whether the entry at a path index can be a person's chosen cut. */
export function isCutPointAt(index: PathIndex, i: number): boolean {
  index.ensure();
  return i >= 0 && i < index.length && (index.flags[i]! & CUT) !== 0;
}
