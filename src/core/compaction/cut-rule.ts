/**
 * pi 1.6's cut rule, read top to bottom (docs/cut-rule.md): where a compaction cuts a path, in six
 * plain steps over the projection. Linear and slow on purpose; the planner uses the fast index
 * (cut.ts over path-index.ts), and tests hold the two equal.
 */
import { type ProjectedEntry, projectPath } from "../session/projection.ts";
import type { AgentMessage, SessionEntry } from "../session/types.ts";
import { hasCutPointMessage, hasTurnStartMessage, messageRole } from "./entry-messages.ts";
import { estimateMessageTokensPi } from "./tokens.ts";

/** Where the cut falls, in indices of the path. */
export interface RuleCut {
  /** The first entry kept verbatim. */
  firstKept: number;
  /** The turn the cut splits: where it starts (-1: the cut is clean). */
  turnStart: number;
  split: boolean;
}

/**
 * The cut for a path (root first) that keeps about `keep` tokens of what the model sees, or
 * undefined when the window holds nothing. `estimate` counts one message (pi's chars/4 by default).
 */
export function cutByRule(
  path: readonly SessionEntry[],
  keep: number,
  estimate: (m: AgentMessage) => number = estimateMessageTokensPi,
): RuleCut | undefined {
  // 1. The window: what the model sees, in pi's order. After a compaction the projection starts
  //    with that compaction (its summary), then its kept range and what came after; the window is
  //    everything after the compaction itself. Entries that contribute nothing stay in the list.
  const proj = projectPath(path);
  const start = proj[0]?.entry.type === "compaction" ? 1 : 0;
  if (start >= proj.length) return undefined;
  const tokensOf = (p: ProjectedEntry) => p.messages.reduce((n, m) => n + estimate(m), 0);

  // 2. The valid cut points: entries whose messages include a user, assistant, bash, custom or
  //    summary message. Never a tool result alone: it stays with the call before it. A compaction
  //    is never a cut point. With none, the window is kept from its start.
  const cutPoints: number[] = [];
  for (let i = start; i < proj.length; i++)
    if (proj[i]!.entry.type !== "compaction" && hasCutPointMessage(proj[i]!.messages)) cutPoints.push(i);
  if (cutPoints.length === 0) return { firstKept: proj[start]!.pathIndex, turnStart: -1, split: false };

  // 3. Walk back from the newest entry, adding up what the model sees. At the entry where the sum
  //    reaches `keep`, cut at the first cut point at or after it (the last one when none follows).
  //    When the sum never reaches `keep`, everything is kept: cut at the first cut point.
  let cut = cutPoints[0]!;
  let reached = false;
  let sum = 0;
  for (let i = proj.length - 1; i >= start; i--) {
    const tokens = tokensOf(proj[i]!);
    if (tokens === 0) continue;
    sum += tokens;
    if (sum >= keep) {
      reached = true;
      cut = cutPoints.find((c) => c >= i) ?? cutPoints[cutPoints.length - 1]!;
      break;
    }
  }

  // 4. A failed attempt hidden by omission edits: when everything after the cut is either unseen by
  //    the model or omitted by an edit, with an omitted assistant reply among it, no compaction and
  //    no edit that replaces anything else, the cut moves one entry on, past the unsent attempt.
  if (reached && isHiddenAttempt(proj.slice(cut + 1))) cut++;

  // 5. Step back over entries just before the cut that the model does not see (settings, labels,
  //    a model change…), so they stay with what they precede; stop at a compaction, at an entry the
  //    model sees, or at the window start.
  while (cut > start && proj[cut - 1]!.entry.type !== "compaction" && proj[cut - 1]!.messages.length === 0)
    cut--;

  // 6. The split turn: a cut on an entry that starts a turn (a person's message, a bash run, a
  //    custom message, a summary) is clean. Otherwise the turn that holds it is split: its start is
  //    the nearest turn start at or before the cut, within the window (none: clean after all).
  const startsTurn = (p: ProjectedEntry) => p.entry.type !== "compaction" && hasTurnStartMessage(p.messages);
  const firstKept = proj[cut]!.pathIndex;
  if (startsTurn(proj[cut]!)) return { firstKept, turnStart: -1, split: false };
  for (let i = cut; i >= start; i--)
    if (startsTurn(proj[i]!)) return { firstKept, turnStart: proj[i]!.pathIndex, split: true };
  return { firstKept, turnStart: -1, split: false };
}

/** Step 4's test on the entries after the cut. */
function isHiddenAttempt(after: readonly ProjectedEntry[]): boolean {
  // Seen as stored: contributes a message unless an edit omits it (a context edit is never "seen").
  const seenAsStored = (p: ProjectedEntry) =>
    p.entry.type !== "context_edit" && projectPath([p.entry])[0]!.messages.length > 0;
  const omitted = (p: ProjectedEntry) => seenAsStored(p) && p.messages.length === 0;
  const omittedIds = new Set(after.filter(omitted).map((p) => p.entry.id));
  const replacesOther = after.some((p) => {
    const e = p.entry as { type: string; replacement?: unknown; targetId?: unknown };
    return e.type === "context_edit" && e.replacement !== null && !omittedIds.has(String(e.targetId));
  });
  return (
    !replacesOther &&
    after.some((p) => messageRole(p.entry) === "assistant" && omitted(p)) &&
    after.every((p) => p.entry.type !== "compaction" && (!seenAsStored(p) || omitted(p)))
  );
}
