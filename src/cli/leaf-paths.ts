/**
 * The paths of one or many leaves of a session for the CLI: the current path (tree.ts
 * `currentPath`) or the path ending at the entry on a physical line, and a walker that moves from
 * one leaf's path to the next keeping the prefix they share, so an incremental planner that
 * follows it only indexes the difference (planning at every line of a linear session is O(n)).
 */
import {
  currentPath,
  getPath,
  type ParsedSession,
  pathTo,
  type SessionEntry,
  type TreeIndex,
} from "../core/session/index.ts";
import type { Result } from "./command.ts";

export interface SessionPath {
  path: SessionEntry[];
  /** 1-based physical line of each path entry. */
  lines: number[];
  leafLine: number | null;
}

/** Physical line of each entry object of a session. */
export function lineIndex(session: ParsedSession): Map<SessionEntry, number> {
  const lineOf = new Map<SessionEntry, number>();
  session.entries.forEach((e, i) => {
    lineOf.set(e, session.lines[i]!);
  });
  return lineOf;
}

/** The current path (leaf on load), or the path ending at the entry on `leafLine`. */
export function sessionPath(session: ParsedSession, leafLine?: number): Result<SessionPath> {
  const { entries, lines } = session;
  let path: SessionEntry[];
  if (leafLine === undefined) path = currentPath(entries);
  else {
    const at = lines.indexOf(leafLine);
    if (at < 0) return { ok: false, error: `no entry on line ${leafLine}` };
    path = pathTo(entries, entries[at]!.id);
  }
  const pathLines = linesOf(session, path);
  return { ok: true, value: { path, lines: pathLines, leafLine: pathLines.at(-1) ?? null } };
}

/**
 * The physical line of each path entry. A path is in file order in any file pi wrote (a parent
 * before its child), so one pass over the entries finds them all without a map; a path out of
 * file order (a damaged file) is looked up in `lineIndex` from the first entry not found.
 */
function linesOf(session: ParsedSession, path: readonly SessionEntry[]): number[] {
  const { entries, lines } = session;
  const out: number[] = [];
  for (let i = 0; i < entries.length && out.length < path.length; i++)
    if (entries[i] === path[out.length]) out.push(lines[i]!);
  if (out.length === path.length) return out;
  const lineOf = lineIndex(session);
  for (let j = out.length; j < path.length; j++) out.push(lineOf.get(path[j]!) ?? 0);
  return out;
}

/** What follows the walker's path: the incremental planner satisfies it. */
export interface PathFollower {
  setPath(path: readonly SessionEntry[]): void;
  append(entry: SessionEntry): void;
}

/**
 * Walks from leaf to leaf. `moveTo` gives the same path as `getPath(byId, leafId)`: it climbs from
 * the leaf until it meets an entry of the current path and keeps the path up to there. A path that
 * did not start at a root or an orphan (a parent cycle) is never reused as a prefix.
 */
export class LeafPathWalker {
  /** The current path, root first (changes on every move; copy it to keep it). */
  readonly path: SessionEntry[] = [];
  private readonly position = new Map<SessionEntry, number>();
  private reusable = true;

  constructor(
    private readonly index: TreeIndex,
    private readonly follower?: PathFollower,
  ) {}

  /** Number of entries the last move kept from the path before it. */
  kept = 0;

  moveTo(leafId: string | null): readonly SessionEntry[] {
    const { byId } = this.index;
    const climbed: SessionEntry[] = [];
    let keep = 0;
    if (this.reusable) {
      const seen = new Set<string>();
      let current = leafId === null ? undefined : byId.get(leafId);
      while (current !== undefined && !seen.has(current.id)) {
        const at = this.position.get(current);
        if (at !== undefined) {
          keep = at + 1;
          break;
        }
        seen.add(current.id);
        climbed.push(current);
        const parentId = current.parentId;
        if (parentId === null || parentId === undefined) break;
        current = byId.get(parentId);
      }
      climbed.reverse();
    } else {
      climbed.push(...getPath(byId, leafId));
    }
    this.replaceFrom(keep, climbed);
    return this.path;
  }

  /** Sets a whole path computed elsewhere (e.g. `currentPath`), keeping what it shares. */
  setPath(path: readonly SessionEntry[]): readonly SessionEntry[] {
    let keep = 0;
    while (keep < path.length && keep < this.path.length && path[keep] === this.path[keep]) keep++;
    this.replaceFrom(keep, path.slice(keep));
    return this.path;
  }

  private replaceFrom(keep: number, added: readonly SessionEntry[]): void {
    for (let i = keep; i < this.path.length; i++) this.position.delete(this.path[i]!);
    this.path.length = keep;
    this.kept = keep;
    this.follower?.setPath(this.path);
    for (const entry of added) {
      this.position.set(entry, this.path.length);
      this.path.push(entry);
      this.follower?.append(entry);
    }
    const first = this.path[0];
    const parentId = first?.parentId;
    this.reusable =
      first === undefined || parentId === null || parentId === undefined || !this.index.byId.has(parentId);
  }
}
