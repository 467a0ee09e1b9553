/**
 * Fork: the path to an entry copied into a new session (header `parentSession` = the file name
 * the source's export gets, `<timestamp>_<id>.jsonl`: see core/session/fork.ts), stored in one
 * transaction; and the export of a single branch (the path to the current position only) as a
 * .jsonl file built the same way.
 */
import { serializeSession } from "../core/session/export.ts";
import { forkSessionContents } from "../core/session/fork.ts";
import type { TreeIndex } from "../core/session/tree.ts";
import type { SessionEntry, SessionHeader } from "../core/session/types.ts";
import {
  type CutpointDb,
  prepareSession,
  type Result,
  type SessionRow,
  saveSession,
  sessionFileName,
} from "../db/index.ts";
import { newEntryId, newSessionId } from "./ids.ts";

export interface ForkSource {
  header: SessionHeader;
  entries: readonly SessionEntry[];
  index?: TreeIndex;
}

function contents(source: ForkSource, entryId: string | null, now: Date) {
  return forkSessionContents({
    source,
    entryId,
    newSessionId: newSessionId(),
    timestamp: now.toISOString(),
    parentSession: sessionFileName(source.header),
    newId: (taken) => newEntryId(taken),
    ...(source.index ? { index: source.index } : {}),
  });
}

/** Stores the fork of `source` at `entryId` as a new session; returns its row. */
export async function forkToNewSession(
  db: CutpointDb,
  source: ForkSource,
  entryId: string | null,
  now = new Date(),
): Promise<Result<SessionRow>> {
  const r = contents(source, entryId, now);
  if (!r.ok) return r;
  return saveSession(db, prepareSession(r.value.header, r.value.entries), "new", now.getTime());
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
