/**
 * Repository of sessions and their entries. Every write is one transaction: an import appears
 * whole or not at all; an append updates entries and metadata together.
 */
import { Dexie } from "dexie";
import type { SessionEntry, SessionHeader } from "../core/session/types.ts";
import { type ChunkForm, isBlobRefusal } from "./chunk-form.ts";
import { deleteChunkTokens } from "./chunk-tokens.ts";
import {
  buildChunks,
  type ChunkSource,
  chunkData,
  exportFileName,
  JSONL_TYPE,
  parseChunkText,
  serializeHeaderLine,
  storedChunkData,
  storedChunkText,
  utf8Length,
} from "./chunks.ts";
import { fail, ok, type Result, toDbError } from "./result.ts";
import { type Writer, writeRefusal } from "./run-gate.ts";
import type { AppendedEntries, ChunkRow, CutpointDb, SessionRow, StoredChunkData } from "./schema.ts";
import { appendMeta, deriveMeta, type EntriesMeta, headerTime } from "./session-meta.ts";

/** A session ready to store: made by the import (or `prepareSession`). */
export interface PreparedSession {
  header: SessionHeader;
  chunks: ChunkSource[];
  meta: EntriesMeta;
  originalVersion: number;
}

/** Builds the stored form of a session from its entries (fork, new session, tests). */
export function prepareSession(
  header: SessionHeader,
  entries: readonly SessionEntry[],
  originalVersion = 3,
): PreparedSession {
  return { header, chunks: buildChunks(entries), meta: deriveMeta(entries), originalVersion };
}

/** The same prepared session under a fresh id (re-import as a copy). */
export function withNewId(prepared: PreparedSession, id: string): PreparedSession {
  return { ...prepared, header: { ...prepared.header, id } };
}

function rowFor(prepared: PreparedSession, now: number, generation: number): SessionRow {
  const headerBytes = utf8Length(serializeHeaderLine(prepared.header)) + 1;
  const byteSize = prepared.chunks.reduce((sum, c) => sum + c.bytes, headerBytes);
  return {
    id: prepared.header.id,
    header: prepared.header,
    name: prepared.meta.name,
    firstUserMessage: prepared.meta.firstUserMessage,
    createdAt: headerTime(prepared.header, now),
    updatedAt: now,
    entryCount: prepared.meta.entryCount,
    byteSize,
    leafId: prepared.meta.leafId,
    lastSeq: prepared.chunks.length,
    generation,
    originalVersion: prepared.originalVersion,
    deletedAt: 0,
  };
}

export type SaveMode = "new" | "replace";

/**
 * Stores a whole session in one transaction. "new" fails with a conflict when a visible session
 * has the id (a soft-deleted one is replaced); "replace" drops the old entries first.
 */
export async function saveSession(
  db: CutpointDb,
  prepared: PreparedSession,
  mode: SaveMode,
  now = Date.now(),
): Promise<Result<SessionRow>> {
  let form: ChunkForm = "bytes";
  try {
    form = await db.chunkStorage.form();
    // Read before the transaction (it would commit while a Blob is read into bytes).
    const data = await Promise.all(prepared.chunks.map((c) => storedChunkData(c, form)));
    return await db.transaction("rw", db.sessions, db.chunks, db.chunkTokens, async () => {
      const id = prepared.header.id;
      const existing = await db.sessions.get(id);
      if (existing && !existing.deletedAt && mode === "new")
        return fail("conflict", `A session with id ${id} already exists.`);
      if (existing) await deleteChunks(db, id);
      const row = rowFor(prepared, now, (existing?.generation ?? 0) + 1);
      await db.sessions.put(row);
      await db.chunks.bulkAdd(
        prepared.chunks.map((c, i) => chunkRow(id, i + 1, row.generation, c, data[i]!)),
      );
      return ok(row);
    });
  } catch (e) {
    // Blobs were accepted by the probe but refused now: once more, as bytes (nothing was written).
    if (form === "blob" && isBlobRefusal(e)) {
      db.chunkStorage.refuseBlobs();
      return saveSession(db, prepared, mode, now);
    }
    return toDbError(e);
  }
}

function chunkRow(
  sessionId: string,
  seq: number,
  generation: number,
  chunk: ChunkSource,
  data: StoredChunkData,
): ChunkRow {
  return { sessionId, seq, generation, data, count: chunk.count, bytes: chunk.bytes };
}

/** The JSONL text of a stored chunk. */
export function chunkText(chunk: ChunkRow): Promise<string> {
  return storedChunkText(chunk.data);
}

function chunkRange(db: CutpointDb, sessionId: string, afterSeq = 0) {
  return db.chunks
    .where("[sessionId+seq]")
    .between([sessionId, afterSeq + 1], [sessionId, Dexie.maxKey], true, true);
}

/** A session's chunks and their stored token counts (inside the caller's transaction). */
async function deleteChunks(db: CutpointDb, sessionId: string): Promise<void> {
  await chunkRange(db, sessionId).delete();
  await deleteChunkTokens(db, sessionId);
}

/**
 * Tells `listener` about every append made in this page once it is committed (also when the
 * append ran inside an outer transaction), so that an open view can extend what it holds in
 * memory at once instead of reading the new chunk back. Returns the unsubscribe function.
 */
export function onEntriesAppended(db: CutpointDb, listener: (appended: AppendedEntries) => void): () => void {
  db.page.appended.add(listener);
  return () => db.page.appended.delete(listener);
}

/**
 * Appends entries (children of the leaf, written by services) in one transaction and updates
 * the metadata (count, size, leaf, name, updatedAt). Refused while another tab runs the session,
 * or while this page's run is writing and `writer` is not that run (run-gate.ts). Services write
 * through `appendAtLeaf`, which also checks the leaf the entries were planned on.
 */
export async function appendEntries(
  db: CutpointDb,
  sessionId: string,
  entries: readonly SessionEntry[],
  now = Date.now(),
  writer: Writer = {},
): Promise<Result<SessionRow>> {
  if (entries.length === 0) {
    const row = await db.sessions.get(sessionId);
    return row ? ok(row) : fail("not-found", `No session ${sessionId}.`);
  }
  try {
    return await db.transaction("rw", db.sessions, db.chunks, async () => {
      const row = await db.sessions.get(sessionId);
      if (!row || row.deletedAt) return fail("not-found", `No session ${sessionId}.`);
      const refused = writeRefusal(db, row, writer);
      if (refused) return refused;
      const chunks = buildChunks(entries, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
      const chunk = chunks[0]!;
      const seq = row.lastSeq + 1;
      // Bytes unless Blobs are known to be kept: this runs inside a transaction, no probe here.
      const data = chunkData(chunk, db.chunkStorage.known() ?? "bytes");
      await db.chunks.add(chunkRow(sessionId, seq, row.generation, chunk, data));
      const meta = appendMeta(
        {
          entryCount: row.entryCount,
          name: row.name,
          firstUserMessage: row.firstUserMessage,
          leafId: row.leafId,
          lastTimestamp: undefined,
        },
        entries,
      );
      const next: SessionRow = {
        ...row,
        entryCount: meta.entryCount,
        name: meta.name,
        firstUserMessage: meta.firstUserMessage,
        leafId: meta.leafId,
        byteSize: row.byteSize + chunk.bytes,
        lastSeq: seq,
        updatedAt: now,
      };
      await db.sessions.put(next);
      const committed = Dexie.currentTransaction?.idbtrans;
      if (committed && db.page.appended.size > 0) {
        const appended = { sessionId, generation: row.generation, seq, entries: parseChunkText(chunk.text) };
        committed.addEventListener("complete", () => {
          for (const listener of db.page.appended) listener(appended);
        });
      }
      return ok(next);
    });
  } catch (e) {
    return toDbError(e);
  }
}

/** Live list of sessions (not deleted), most recently updated first. */
export async function listSessions(db: CutpointDb): Promise<SessionRow[]> {
  const rows = await db.sessions.where("deletedAt").equals(0).toArray();
  return rows.sort((a, b) => b.updatedAt - a.updatedAt);
}

export async function getSession(db: CutpointDb, id: string): Promise<SessionRow | undefined> {
  const row = await db.sessions.get(id);
  return row && !row.deletedAt ? row : undefined;
}

/** The chunk rows of a session with seq > afterSeq, in order. */
export async function readChunks(db: CutpointDb, sessionId: string, afterSeq = 0): Promise<ChunkRow[]> {
  return chunkRange(db, sessionId, afterSeq).toArray();
}

/** All entries of a session in file order (parses every chunk; fine for tests and small sessions). */
export async function readEntries(db: CutpointDb, sessionId: string): Promise<SessionEntry[]> {
  const chunks = await readChunks(db, sessionId);
  const texts = await Promise.all(chunks.map(chunkText));
  return texts.flatMap((t) => parseChunkText(t));
}

export interface ExportedSession {
  fileName: string;
  /** The v3 JSONL parts (header line, then each chunk's text); their concatenation is the file. */
  parts: string[];
  byteSize: number;
}

async function exportRows(db: CutpointDb, sessionId: string) {
  return db.transaction("r", db.sessions, db.chunks, async () => {
    const row = await getSession(db, sessionId);
    return row ? { row, chunks: await readChunks(db, sessionId) } : undefined;
  });
}

/** The v3 JSONL of a session as text parts (header line + chunk texts; no re-serialization). */
export async function exportSession(
  db: CutpointDb,
  sessionId: string,
  exportedAt = new Date(),
): Promise<Result<ExportedSession>> {
  try {
    const got = await exportRows(db, sessionId);
    if (!got) return fail("not-found", `No session ${sessionId}.`);
    const texts = await Promise.all(got.chunks.map(chunkText));
    const parts = [`${serializeHeaderLine(got.row.header)}\n`, ...texts];
    return ok({ fileName: exportFileName(got.row.header, exportedAt), parts, byteSize: got.row.byteSize });
  } catch (e) {
    return toDbError(e);
  }
}

/**
 * The v3 file of a session as a Blob made of the header line and the stored chunk Blobs.
 * Nothing is read or re-serialized: the browser streams the Blobs from disk on download.
 */
export async function exportSessionBlob(
  db: CutpointDb,
  sessionId: string,
  exportedAt = new Date(),
): Promise<Result<{ fileName: string; blob: Blob; byteSize: number }>> {
  try {
    const got = await exportRows(db, sessionId);
    if (!got) return fail("not-found", `No session ${sessionId}.`);
    const blob = new Blob([`${serializeHeaderLine(got.row.header)}\n`, ...got.chunks.map((c) => c.data)], {
      type: JSONL_TYPE,
    });
    return ok({ fileName: exportFileName(got.row.header, exportedAt), blob, byteSize: got.row.byteSize });
  } catch (e) {
    return toDbError(e);
  }
}

/** Hides a session (Undo restores it); `purgeDeleted` removes it for good. */
export async function softDeleteSession(db: CutpointDb, id: string, now = Date.now()): Promise<Result<void>> {
  try {
    const n = await db.sessions.update(id, { deletedAt: now });
    return n ? ok(undefined) : fail("not-found", `No session ${id}.`);
  } catch (e) {
    return toDbError(e);
  }
}

export async function restoreSession(db: CutpointDb, id: string): Promise<Result<void>> {
  try {
    const n = await db.sessions.update(id, { deletedAt: 0 });
    return n ? ok(undefined) : fail("not-found", `No session ${id}.`);
  } catch (e) {
    return toDbError(e);
  }
}

/** Sessions hidden by a delete and not purged yet (their Undo may still be offered), oldest first. */
export async function listDeletedSessions(db: CutpointDb): Promise<SessionRow[]> {
  const rows = await db.sessions.where("deletedAt").above(0).toArray();
  return rows.sort((a, b) => a.deletedAt - b.deletedAt);
}

/** Removes a session and its entries for good. */
export async function purgeSession(db: CutpointDb, id: string): Promise<Result<void>> {
  try {
    await db.transaction("rw", db.sessions, db.chunks, db.chunkTokens, async () => {
      await deleteChunks(db, id);
      await db.sessions.delete(id);
    });
    return ok(undefined);
  } catch (e) {
    return toDbError(e);
  }
}

/** Purges every session soft-deleted before `before` (ms). Returns how many. */
export async function purgeDeleted(db: CutpointDb, before: number): Promise<number> {
  const rows = await db.sessions.where("deletedAt").between(1, before, true, false).toArray();
  for (const row of rows) await purgeSession(db, row.id);
  return rows.length;
}
