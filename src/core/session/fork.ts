/**
 * Fork contents (pure): the path from a root to an entry, copied into a new session whose
 * header names the source in `parentSession`. Also used for "export this branch only".
 *
 * - Entries of the path are copied unchanged (same ids, parents, timestamps, unknown fields), so
 *   the new file is a valid pi session whose leaf is the forked entry.
 * - Labels are resolved over the whole source file (§4), so a label written on another branch
 *   can name an entry of the path. Those labels are re-created as `label` entries appended after
 *   the path, so the fork shows the same labels on the copied entries. They are chained after the
 *   forked entry, and a final move entry (moves.ts) puts the position back on it, for pi too.
 * - Moves and old `leaf` entries on the path are kept (they are part of the chain).
 * - With a `name`, a `session_info` entry (how pi names a session) follows the forked entry and is
 *   the fork's position, so the list can tell the fork from its parent; the labels follow it.
 *
 * `parentSession`: pi writes the parent's file path; a browser has no path, so Cutpoint writes
 * the file name its export gives the parent (`<timestamp>_<session id>.jsonl`, as pi names its
 * files), from which `parentSessionId` reads the id back (older Cutpoint wrote the bare id).
 */

import { buildMoveEntry } from "./moves.ts";
import { sessionInfoEntry } from "./session-name.ts";
import { buildTreeIndex, getPath, resolveLabels, type TreeIndex } from "./tree.ts";
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "./types.ts";

export interface ForkInput {
  source: { header: SessionHeader; entries: readonly SessionEntry[] };
  /** Fork up to and including this entry; null = an empty session. */
  entryId: string | null;
  /** Id of the new session (a fresh UUID). */
  newSessionId: string;
  /** ISO time of the new header and of the entries added. */
  timestamp: string;
  /** What to write into `parentSession` (the source session's file name, see the module comment). */
  parentSession: string;
  /** Fresh entry ids for the label / move entries added; must not collide with the path ids. */
  newId: (taken: ReadonlySet<string>) => string;
  /** Reuse an index of the source entries (optional). */
  index?: TreeIndex;
  /** The fork's own name (a session_info entry after the forked entry); none = the parent's names as they are. */
  name?: string;
}

export type ForkResult =
  | { ok: true; value: { header: SessionHeader; entries: SessionEntry[]; leafId: string | null } }
  | { ok: false; error: { kind: "not-found"; message: string } };

export function forkSessionContents(input: ForkInput): ForkResult {
  const { source, entryId } = input;
  const index = input.index ?? buildTreeIndex(source.entries);
  if (entryId !== null && !index.byId.has(entryId)) {
    return { ok: false, error: { kind: "not-found", message: `No entry ${entryId} in this session.` } };
  }
  const path = getPath(index.byId, entryId);
  const header: SessionHeader = {
    type: "session",
    version: CURRENT_SESSION_VERSION,
    id: input.newSessionId,
    timestamp: input.timestamp,
    cwd: typeof source.header.cwd === "string" ? source.header.cwd : "",
    parentSession: input.parentSession,
  };
  const entries: SessionEntry[] = path.slice();
  const taken = new Set<string>(index.byId.keys());
  const fresh = () => {
    const id = input.newId(taken);
    taken.add(id);
    return id;
  };

  let at = entryId;
  if (input.name !== undefined) {
    const id = fresh();
    entries.push(sessionInfoEntry(id, entryId, input.timestamp, input.name));
    at = id;
  }
  // Labels the source shows on path entries but the copied path alone would not.
  const wanted = resolveLabels(source.entries);
  const have = resolveLabels(path);
  let parent = at;
  let added = false;
  for (const e of path) {
    const want = wanted.get(e.id) ?? "";
    const got = have.get(e.id) ?? "";
    if (want === got) continue;
    const id = fresh();
    const label: SessionEntry = {
      type: "label",
      id,
      parentId: parent,
      timestamp: input.timestamp,
      targetId: e.id,
      label: want,
    };
    entries.push(label);
    parent = id;
    added = true;
  }
  if (added)
    entries.push(buildMoveEntry({ id: fresh(), timestamp: input.timestamp, targetId: at, fromId: parent }));
  return { ok: true, value: { header, entries, leafId: at } };
}

/**
 * The id of the session a header's `parentSession` names: the id part of a pi-style file name or
 * path (`…/<timestamp>_<id>.jsonl`), or the value itself when it is a bare id (older Cutpoint).
 * Undefined when there is none.
 */
export function parentSessionId(parentSession: unknown): string | undefined {
  if (typeof parentSession !== "string") return undefined;
  const value = parentSession.trim();
  if (value === "") return undefined;
  const name = value.split(/[\\/]/).pop() ?? "";
  if (!name.toLowerCase().endsWith(".jsonl"))
    return value.includes("/") || value.includes("\\") ? undefined : value;
  const stem = name.slice(0, -".jsonl".length);
  const cut = stem.indexOf("_");
  const id = cut >= 0 ? stem.slice(cut + 1) : stem;
  return id === "" ? undefined : id;
}
