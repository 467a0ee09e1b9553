/**
 * How the open session's view holds entries shown before their write commits (the tab's channel is
 * services/session/pending-entries.ts): a leaf move appears in the same frame as the click, not
 * after the IndexedDB transaction (5-20 ms, often a frame more; e2e/bench/tree.bench.ts). When the
 * append commits, the stored entries take over the very array on screen (nothing re-derives); when
 * it fails, the batch is withdrawn and the view is what is stored again.
 *
 * Only for appends whose entries are built before the write and written exactly (a move entry
 * from `buildLeafMove`), never for content a person typed or a model wrote.
 */
import type { SessionEntry } from "../../core/session/types.ts";
import type { LoadedSession } from "../../services/session/loaded-session.ts";
import type { PendingBatch } from "../../services/session/pending-entries.ts";
import type { AppendedEntries } from "../../services/session/session-open.ts";

/** What `useSessionData` holds: the stored entries as loaded, and the batches not yet committed. */
export interface Held {
  loaded: LoadedSession | undefined;
  pending: PendingBatch[];
}

function sameIds(a: readonly SessionEntry[], b: readonly SessionEntry[]): boolean {
  return a.length === b.length && a.every((e, i) => e.id === b[i]!.id);
}

/** The chain of views is intact: each batch was shown on top of the one before it. */
function chained(held: Held): boolean {
  let base = held.loaded?.entries;
  for (const b of held.pending) {
    if (b.base !== base || !b.view) return false;
    base = b.view;
  }
  return true;
}

/** The entries to show: stored, then pending (the array shown last when nothing changed since). */
export function shownEntries(held: Held): SessionEntry[] | undefined {
  const { loaded, pending } = held;
  if (!loaded) return undefined;
  const mine = pending.filter((b) => b.sessionId === loaded.id);
  if (mine.length === 0) return loaded.entries;
  if (mine.length === pending.length && chained(held)) return pending.at(-1)!.view;
  // Entries already stored (read back by another load before their commit was heard) show once.
  const tail = new Set(loaded.entries.slice(-64).map((e) => e.id));
  return loaded.entries.concat(mine.flatMap((b) => b.entries).filter((e) => !tail.has(e.id)));
}

/** A batch is shown: remember the array it is shown in, so that its commit can keep it. */
export function heldShow(held: Held, batch: PendingBatch): Held {
  const base = shownEntries(held);
  if (!base || held.loaded?.id !== batch.sessionId) return { ...held, pending: [...held.pending, batch] };
  return { ...held, pending: [...held.pending, { ...batch, base, view: base.concat(batch.entries) }] };
}

/**
 * A batch was withdrawn (its write failed). The stored entries are handed out as a new array:
 * derived data cached per array (the tree index, extended in place) may hold the withdrawn
 * entries, so it is built afresh.
 */
export function heldWithdraw(held: Held, token: number): Held {
  const pending = held.pending.filter((b) => b.token !== token);
  if (pending.length === held.pending.length) return held;
  const loaded = held.loaded ? { ...held.loaded, entries: held.loaded.entries.slice() } : undefined;
  return { loaded, pending: pending.map(({ base: _b, view: _v, ...rest }) => rest) };
}

/**
 * Entries committed in this page; the pending batch with their ids is done. When it was the first
 * one and nothing else came in between, the stored entries become the array already on screen.
 */
export function heldAppended(held: Held, appended: AppendedEntries): Held {
  const at = held.pending.findIndex(
    (b) => b.sessionId === appended.sessionId && sameIds(b.entries, appended.entries),
  );
  const committed = at >= 0;
  const first = at === 0 ? held.pending[0] : undefined;
  const pending = committed ? held.pending.filter((_, i) => i !== at) : held.pending;
  const current = held.loaded;
  if (
    !current ||
    current.id !== appended.sessionId ||
    current.generation !== appended.generation ||
    current.lastSeq !== appended.seq - 1
  )
    return committed ? { loaded: current, pending } : held;
  const entries =
    first?.view && first.base === current.entries ? first.view : current.entries.concat(appended.entries);
  return { loaded: { ...current, entries, lastSeq: appended.seq }, pending };
}
