/**
 * Merge of entries read from a sync target into a session (pure): the union by id. Entries
 * already held are skipped, a repeated id is taken once, and what is added comes parents first,
 * so the session's file stays in an order pi can read. An entry whose parent is neither held nor
 * in the batch waits (it came from a device whose earlier chunk is not read yet) rather than
 * becoming a new root. Nothing is ever replaced: two devices' appends at the same parent are two
 * children of it, i.e. branches.
 */
import { runSteps, type Steps } from "../session/steps.ts";
import type { SessionEntry } from "../session/types.ts";

export interface MergeResult {
  /** The new entries, each after its parent (otherwise in the order they came). */
  append: SessionEntry[];
  /** Entries whose parent is missing: kept for a later merge. */
  waiting: SessionEntry[];
  /** Entries skipped because their id is already held or repeated in the batch. */
  skipped: number;
}

/** Entries handled per step of `mergeEntriesSteps`. */
const ENTRIES_PER_STEP = 4096;

export function mergeEntries(held: ReadonlySet<string>, batch: readonly SessionEntry[]): MergeResult {
  return runSteps(mergeEntriesSteps(held, batch));
}

/** `mergeEntries` a few thousand entries per step. */
export function* mergeEntriesSteps(
  held: ReadonlySet<string>,
  batch: readonly SessionEntry[],
): Steps<MergeResult> {
  const merger = createMerger(held);
  const append = yield* merger.add(batch);
  return { append, waiting: merger.waiting(), skipped: merger.skipped() };
}

/** A merge fed a batch at a time (a session fetched chunk by chunk, never held whole). */
export interface Merger {
  /** The entries of `batch` (and earlier waiting ones) that can be placed now, each after its parent. */
  add(batch: readonly SessionEntry[]): Steps<SessionEntry[]>;
  /** Entries whose parent has not arrived (yet), in the order they came. */
  waiting(): SessionEntry[];
  /** Entries skipped so far because their id is held or came before. */
  skipped(): number;
  /** Whether this very entry is one that waits for its parent. */
  waits(entry: SessionEntry): boolean;
}

/** A merge into a session holding the ids `held`: only ids and waiting entries are kept between batches. */
export function createMerger(held: ReadonlySet<string>): Merger {
  const known = new Set(held);
  const pending = new Map<string, SessionEntry>();
  /** Waiting entries by the parent they wait for, in the order they came. */
  const below = new Map<string, SessionEntry[]>();
  let skipped = 0;
  let n = 0;
  function* add(batch: readonly SessionEntry[]): Steps<SessionEntry[]> {
    const append: SessionEntry[] = [];
    for (const entry of batch) {
      if (++n % ENTRIES_PER_STEP === 0) yield;
      if (known.has(entry.id) || pending.has(entry.id)) {
        skipped++;
        continue;
      }
      if (entry.parentId !== null && !known.has(entry.parentId)) {
        pending.set(entry.id, entry);
        const list = below.get(entry.parentId);
        if (list) list.push(entry);
        else below.set(entry.parentId, [entry]);
        continue;
      }
      // Placed, and after it whatever waited for it (depth first, in the order they came).
      const stack = [entry];
      while (stack.length > 0) {
        if (++n % ENTRIES_PER_STEP === 0) yield;
        const placed = stack.pop()!;
        pending.delete(placed.id);
        append.push(placed);
        known.add(placed.id);
        const children = below.get(placed.id);
        if (!children) continue;
        below.delete(placed.id);
        for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
      }
    }
    return append;
  }
  return {
    add,
    waiting: () => [...pending.values()],
    skipped: () => skipped,
    waits: (entry) => pending.get(entry.id) === entry,
  };
}

/**
 * Where this device's position goes after `appended` was merged in: to the newest appended
 * entry that continues the branch it stands on (`anchor`, the entry it shows; null: before the
 * first), as a fast-forward; undefined when the merge only added other branches (it stays).
 * Position markers are never a target (`isMarker`).
 */
export function positionAfterMerge(
  parentOf: (id: string) => string | null | undefined,
  anchor: string | null,
  appended: readonly SessionEntry[],
  isMarker: (entry: SessionEntry) => boolean,
): string | undefined {
  const verdict = new Map<string, boolean>();
  const descends = (start: string): boolean => {
    const walked: string[] = [];
    let id: string | null | undefined = start;
    let found = false;
    while (id !== null && id !== undefined) {
      const known = verdict.get(id);
      if (known !== undefined) {
        found = known;
        break;
      }
      if (id === anchor) {
        found = true;
        break;
      }
      walked.push(id);
      id = parentOf(id);
      if (walked.length > 1_000_000) break;
    }
    if (anchor === null) found = true;
    for (const w of walked) verdict.set(w, found);
    return found;
  };
  for (let i = appended.length - 1; i >= 0; i--) {
    const e = appended[i]!;
    if (!isMarker(e) && descends(e.id)) return e.id;
  }
  return undefined;
}
