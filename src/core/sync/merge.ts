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
  /** The new entries, each after its parent (stable: batch order otherwise). */
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

/** `mergeEntries` a few thousand entries per step (a whole session fetched at once). */
export function* mergeEntriesSteps(
  held: ReadonlySet<string>,
  batch: readonly SessionEntry[],
): Steps<MergeResult> {
  const known = new Set(held);
  const pending = new Map<string, SessionEntry>();
  let skipped = 0;
  let n = 0;
  for (const entry of batch) {
    if (known.has(entry.id) || pending.has(entry.id)) skipped++;
    else pending.set(entry.id, entry);
    if (++n % ENTRIES_PER_STEP === 0) yield;
  }
  const below = new Map<string, SessionEntry[]>();
  for (const entry of pending.values()) {
    if (++n % ENTRIES_PER_STEP === 0) yield;
    if (entry.parentId === null || known.has(entry.parentId) || !pending.has(entry.parentId)) continue;
    const list = below.get(entry.parentId);
    if (list) list.push(entry);
    else below.set(entry.parentId, [entry]);
  }
  const append: SessionEntry[] = [];
  function* place(start: SessionEntry): Steps<void> {
    const stack = [start];
    while (stack.length > 0) {
      if (++n % ENTRIES_PER_STEP === 0) yield;
      const entry = stack.pop()!;
      append.push(entry);
      known.add(entry.id);
      const children = below.get(entry.id);
      if (children) for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
  for (const entry of pending.values()) {
    if (++n % ENTRIES_PER_STEP === 0) yield;
    if (known.has(entry.id)) continue;
    if (entry.parentId === null || known.has(entry.parentId)) yield* place(entry);
  }
  const waiting = [...pending.values()].filter((e) => !known.has(e.id));
  return { append, waiting, skipped };
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
