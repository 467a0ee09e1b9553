/**
 * Moves of the current position, written so that pi 1.6 sees them: a `custom` entry (extension
 * state, never in the model's context) of type "cutpoint.move" whose parent is the target. pi's
 * leaf on load is the last entry, so a file ending with a move opens at the move, whose path is
 * the target's path: exactly what pi's branch() / resetLeaf() followed by an append leaves.
 * The app shows a move as the entry it moved to (`displayPosition`); older Cutpoint files have
 * `leaf` entries instead (a trailing one sets the leaf, see `resolveLeafId`).
 */
import type { CustomEntry, SessionEntry } from "./types.ts";
import { isLeafEntry } from "./types.ts";

export const MOVE_CUSTOM_TYPE = "cutpoint.move";

export interface MoveData {
  /** The entry moved to (null: before the first entry). */
  targetId: string | null;
  /** The leaf left behind (null: there was none). */
  fromId: string | null;
}

export interface MoveEntry extends CustomEntry {
  customType: typeof MOVE_CUSTOM_TYPE;
  data: MoveData;
}

/** The move from `fromId` to `targetId`: a child of the target (a root when the target is null). */
export function buildMoveEntry(input: {
  id: string;
  timestamp: string;
  targetId: string | null;
  fromId: string | null;
}): MoveEntry {
  return {
    type: "custom",
    customType: MOVE_CUSTOM_TYPE,
    data: { targetId: input.targetId, fromId: input.fromId },
    id: input.id,
    parentId: input.targetId,
    timestamp: input.timestamp,
  };
}

/**
 * A move, recognised by its custom type only: its parent is the position (a file edited by hand
 * may lack or garble `data`, which is therefore not trusted here).
 */
export function isMoveEntry(
  entry: SessionEntry,
): entry is CustomEntry & { customType: typeof MOVE_CUSTOM_TYPE } {
  return entry.type === "custom" && (entry as { customType?: unknown }).customType === MOVE_CUSTOM_TYPE;
}

/**
 * Entries that only say where the position is: moves, and the `leaf` entries of older Cutpoint
 * files. The tree and the timeline never show them; what hangs below one is shown below the
 * entry it stands for (its parent: for a `leaf` entry, the position it was written from).
 */
export function isPositionMarker(entry: SessionEntry): boolean {
  return isMoveEntry(entry) || isLeafEntry(entry);
}

/**
 * Where an entry stands in the tree the app shows: a position marker stands for its parent
 * (walking up over consecutive markers; null at a root or a missing parent), anything else for
 * itself. `null` / `undefined` in, null out.
 */
export function displayPosition(
  entry: SessionEntry | null | undefined,
  byId: ReadonlyMap<string, SessionEntry>,
): SessionEntry | null {
  let current = entry ?? undefined;
  let seen: Set<string> | undefined;
  while (current !== undefined && isPositionMarker(current)) {
    if (current.parentId === null || current.parentId === undefined) return null;
    // Chains of markers are short; a cycle (a damaged file) ends the walk.
    seen ??= new Set();
    if (seen.has(current.id)) return null;
    seen.add(current.id);
    current = byId.get(current.parentId);
  }
  return current ?? null;
}

/** `displayPosition` by id: the id of the entry `id` stands for (null when none). */
export function displayPositionId(
  id: string | null | undefined,
  byId: ReadonlyMap<string, SessionEntry>,
): string | null {
  if (id === null || id === undefined) return null;
  const entry = byId.get(id);
  if (entry === undefined) return null;
  return displayPosition(entry, byId)?.id ?? null;
}

/**
 * The leaf a branch summary left behind, read from its `fromId` in both forms: pi 1.6 writes the
 * leaf left ("root" when there was none: null here); Cutpoint before 2026-12 wrote the new leaf,
 * that is its own parent (or "root" under no parent): then the leaf left is not recorded
 * (undefined). The id may name a move: `displayPositionId` gives the entry it stood for.
 */
export function branchSummaryLeftId(entry: SessionEntry): string | null | undefined {
  if (entry.type !== "branch_summary") return undefined;
  const fromId = (entry as { fromId?: unknown }).fromId;
  if (typeof fromId !== "string" || fromId === (entry.parentId ?? "root")) return undefined;
  return fromId === "root" ? null : fromId;
}
