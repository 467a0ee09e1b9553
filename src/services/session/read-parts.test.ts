/**
 * Unit tests of reading a session's chunks as text parts: every line once, in order, over many
 * spans; only the chunks asked for; "replaced" for another generation; the parse share.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { header, msg, user } from "../../core/session/test-builders.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { buildChunks, type CutpointDb, deriveMeta, parseChunkText, saveSession } from "../../db/index.ts";
import { freshDb } from "../../test-support/fixture-db.ts";
import { readSessionParts } from "./read-parts.ts";
import type { ReadPart } from "./read-parts-protocol.ts";

let db: CutpointDb;
beforeEach(() => {
  db = freshDb("read");
});
afterEach(() => db.close());

function entries(n: number): SessionEntry[] {
  const out: SessionEntry[] = [];
  let parent: string | null = null;
  for (let i = 0; i < n; i++) {
    out.push(msg(`e${i}`, parent, user(`message ${i} ${"é".repeat(i % 7)}`)));
    parent = `e${i}`;
  }
  return out;
}

async function store(id: string, all: SessionEntry[], chars: number, perChunk: number) {
  const prepared = {
    header: header({ id }),
    chunks: buildChunks(all, chars, perChunk),
    meta: deriveMeta(all),
    originalVersion: 3,
  };
  const saved = await saveSession(db, prepared, "new");
  if (!saved.ok) throw new Error(saved.error.message);
  return saved.value;
}

async function collect(parts: AsyncIterable<ReadPart>): Promise<ReadPart[]> {
  const out: ReadPart[] = [];
  for await (const p of parts) out.push(p);
  return out;
}

describe("reading a session's chunks as text parts", () => {
  it("yields every entry's line once, in order, with its chunk's seq, over many read spans", async () => {
    const all = entries(1500);
    const row = await store("s", all, 2000, 40);
    expect(row.lastSeq).toBeGreaterThan(20);
    const parts = await collect(
      readSessionParts(db, { sessionId: "s", generation: row.generation, from: 1, to: row.lastSeq }),
    );
    const seqs = parts.map((p) => (p.kind === "text" ? p.seq : -1));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(row.lastSeq);
    const back = parts.flatMap((p) => (p.kind === "text" ? parseChunkText(p.text) : []));
    expect(back).toEqual(all);
  });

  it("reads only the chunks asked for", async () => {
    const all = entries(200);
    const row = await store("s", all, 100_000, 10);
    const parts = await collect(
      readSessionParts(db, { sessionId: "s", generation: row.generation, from: 3, to: 4 }),
    );
    expect(parts.flatMap((p) => (p.kind === "text" ? parseChunkText(p.text) : []))).toEqual(
      all.slice(20, 40),
    );
  });

  it("ends with 'replaced' when the chunks are of another generation (re-imported meanwhile)", async () => {
    const row = await store("s", entries(100), 1000, 10);
    const parts = await collect(
      readSessionParts(db, { sessionId: "s", generation: row.generation + 1, from: 1, to: row.lastSeq }),
    );
    expect(parts).toEqual([{ kind: "replaced" }]);
  });
});
