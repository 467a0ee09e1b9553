/**
 * Fork: the path to an entry copied into a new session (header `parentSession` = the file name
 * the source's export gets, `<timestamp>_<id>.jsonl`: see core/session/fork.ts), stored in one
 * transaction; and the export of a single branch (the path to the current position only) as a
 * .jsonl file built the same way.
 *
 * A fork in the list is named "Fork of <parent>" (numbered when that is taken: a session_info
 * entry, as pi names a session). Forking at a user message follows pi's new-leaf rule (§12, as the
 * tree's moves do): the fork ends at that message's parent and its text is handed back for the
 * composer, ready to send or edit, instead of a fork whose last message waits for a reply.
 */
import { branchNewLeaf } from "../../core/compaction/branch.ts";
import { serializeSession } from "../../core/session/export.ts";
import { forkSessionContents } from "../../core/session/fork.ts";
import { distinctName, forkName, sessionTitle } from "../../core/session/session-name.ts";
import { buildTreeIndex, type TreeIndex } from "../../core/session/tree.ts";
import type { SessionEntry, SessionHeader } from "../../core/session/types.ts";
import {
  type CutpointDb,
  deriveMeta,
  getSession,
  prepareSession,
  type Result,
  type SessionRow,
  saveSession,
  sessionFileName,
} from "../../db/index.ts";
import { newEntryId, newSessionId } from "../common/ids.ts";
import { sessionTitles } from "../session/sessions-service.ts";

export interface ForkSource {
  header: SessionHeader;
  entries: readonly SessionEntry[];
  index?: TreeIndex;
}

function contents(source: ForkSource, entryId: string | null, now: Date, name?: string) {
  return forkSessionContents({
    ...(name !== undefined ? { name } : {}),
    source,
    entryId,
    newSessionId: newSessionId(),
    timestamp: now.toISOString(),
    parentSession: sessionFileName(source.header),
    newId: (taken) => newEntryId(taken),
    ...(source.index ? { index: source.index } : {}),
  });
}

export interface Forked {
  row: SessionRow;
  /** The text of the user message forked at, for the new session's composer (see the module comment). */
  editorText: string | undefined;
}

/** Stores the fork of `source` at `entryId` as a new session, named after its parent. */
export async function forkToNewSession(
  db: CutpointDb,
  source: ForkSource,
  entryId: string | null,
  now = new Date(),
): Promise<Result<Forked>> {
  const index = source.index ?? buildTreeIndex(source.entries);
  const target = entryId === null ? null : index.byId.get(entryId);
  // An unknown entry: `contents` says so.
  const landing = target === undefined ? { leafId: entryId, editorText: undefined } : branchNewLeaf(target);
  const parent = (await getSession(db, source.header.id)) ?? deriveMeta(source.entries);
  const name = distinctName(forkName(sessionTitle(parent)), await sessionTitles(db));
  const r = contents({ ...source, index }, landing.leafId, now, name);
  if (!r.ok) return r;
  const saved = await saveSession(db, prepareSession(r.value.header, r.value.entries), "new", now.getTime());
  return saved.ok ? { ok: true, value: { row: saved.value, editorText: landing.editorText } } : saved;
}

/** The file of one branch: the path to `leafId` (default: the current leaf) as a new v3 session. */
export function exportBranchFile(
  source: ForkSource,
  leafId: string | null,
  now = new Date(),
): Result<{ fileName: string; text: string; blob: Blob }> {
  const r = contents(source, leafId, now);
  if (!r.ok) return r;
  const text = serializeSession(r.value.header, r.value.entries);
  const blob = new Blob([text], { type: "application/x-ndjson" });
  return { ok: true, value: { fileName: sessionFileName(r.value.header), text, blob } };
}
