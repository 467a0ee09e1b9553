/** Helpers for the tree and move tests (not part of the public API). */
import { buildMoveEntry, type MoveEntry } from "./moves.ts";
import { buildTreeData, extendTreeData, type TreeData } from "./session-tree.ts";
import type { TreeRow } from "./session-tree-rows.ts";
import { TS } from "./test-builders.ts";
import type { SessionEntry } from "./types.ts";

/** A move with a fixed timestamp. */
export const move = (id: string, targetId: string | null, fromId: string | null = null): MoveEntry =>
  buildMoveEntry({ id, timestamp: TS, targetId, fromId });

/** Rows as indented ids ("…n" for a collapsed run of n entries). */
export const describeRows = (rows: readonly TreeRow[]): string[] =>
  rows.map((r) =>
    r.kind === "run" ? `${"  ".repeat(r.depth)}…${r.count}` : `${"  ".repeat(r.depth)}${r.entry.id}`,
  );

/** The UI's use of the tree data: the data of the previous array is extended when the next appends to it. */
export function appendingTreeData(): (entries: readonly SessionEntry[]) => TreeData {
  let latest: TreeData | undefined;
  return (entries) => {
    latest =
      (latest && latest.entries === entries ? latest : undefined) ??
      (latest && extendTreeData(latest, entries)) ??
      buildTreeData(entries);
    return latest;
  };
}
