/**
 * Reading a stored session into memory for the session view (and the agent/compaction UIs):
 * all chunks once, then only the chunks appended since (entries are append-only).
 * Parsing yields to the event loop between chunks so a 100 MB session never freezes the page.
 */
import type { SessionEntry, SessionHeader } from "../core/session/types.ts";
import { type CutpointDb, parseChunkText, readChunks } from "../db/index.ts";

export interface LoadedSession {
  id: string;
  header: SessionHeader;
  /** Entries in file order. Replaced (never mutated) when new entries arrive. */
  entries: SessionEntry[];
  generation: number;
  lastSeq: number;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function parseChunks(
  texts: readonly string[],
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<SessionEntry[] | undefined> {
  const out: SessionEntry[] = [];
  let lastYield = performance.now();
  for (let i = 0; i < texts.length; i++) {
    const parsed = parseChunkText(texts[i]!);
    for (const e of parsed) out.push(e);
    if (performance.now() - lastYield > 40) {
      onProgress?.((i + 1) / texts.length);
      await yieldToEventLoop();
      if (signal?.aborted) return undefined;
      lastYield = performance.now();
    }
  }
  return out;
}

/** Loads a whole session; undefined when it does not exist (or the load was aborted). */
export async function loadSession(
  db: CutpointDb,
  sessionId: string,
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<LoadedSession | undefined> {
  const snapshot = await db.transaction("r", db.sessions, db.chunks, async () => {
    const row = await db.sessions.get(sessionId);
    if (!row || row.deletedAt) return undefined;
    return { row, chunks: await readChunks(db, sessionId) };
  });
  if (!snapshot || signal?.aborted) return undefined;
  const entries = await parseChunks(
    snapshot.chunks.map((c) => c.text),
    onProgress,
    signal,
  );
  if (!entries) return undefined;
  const lastSeq = snapshot.chunks.at(-1)?.seq ?? 0;
  return {
    id: sessionId,
    header: snapshot.row.header,
    entries,
    generation: snapshot.row.generation,
    lastSeq,
  };
}

/** Adds the chunks written after `loaded` (same generation). Returns `loaded` when nothing is new. */
export async function loadNewEntries(db: CutpointDb, loaded: LoadedSession): Promise<LoadedSession> {
  const chunks = await readChunks(db, loaded.id, loaded.lastSeq);
  const fresh = chunks.filter((c) => c.generation === loaded.generation);
  if (fresh.length === 0) return loaded;
  const added = fresh.flatMap((c) => parseChunkText(c.text));
  return {
    ...loaded,
    entries: loaded.entries.concat(added),
    lastSeq: fresh.at(-1)!.seq,
  };
}
