/**
 * The chunk form: Blobs where the engine keeps them, bytes where it refuses them as WebKit's private
 * windows do (the probe leaves nothing behind); the same session and export either way; refused and
 * failed writes said in plain words, never in the library's.
 */
import { IDBFactory, IDBKeyRange, IDBObjectStore } from "fake-indexeddb";
import { afterEach, describe, expect, it } from "vitest";
import { assistant, header, msg, user } from "../core/session/test-builders.ts";
import type { SessionEntry } from "../core/session/types.ts";
import { isBlobRefusal, probeChunkForm } from "./chunk-form.ts";
import { STRING_CHUNK_MAX_CHARS } from "./chunks.ts";
import { STORAGE_FAILED, STORAGE_REFUSED_FILES, STORAGE_UNAVAILABLE, toDbError } from "./result.ts";
import { type CutpointDb, createDb } from "./schema.ts";
import {
  appendEntries,
  exportSessionBlob,
  prepareSession,
  readChunks,
  readEntries,
  saveSession,
} from "./sessions-repo.ts";

type Put = (this: IDBObjectStore, value: unknown, key?: IDBValidKey) => IDBRequest;
const realPut = IDBObjectStore.prototype.put as unknown as Put;
const realAdd = IDBObjectStore.prototype.add as unknown as Put;

const holdsBlob = (value: unknown): boolean =>
  value instanceof Blob ||
  (typeof value === "object" && value !== null && Object.values(value).some((v) => v instanceof Blob));

/** Makes fake-indexeddb refuse Blob values as WebKit did before 17 (put throws DataCloneError). */
function refuseBlobs(): void {
  const refusing = (real: Put): Put =>
    function (this: IDBObjectStore, value, key) {
      if (holdsBlob(value))
        throw new DOMException(
          "Failed to store record in an IDBObjectStore: BlobURLs are not yet supported.",
          "DataCloneError",
        );
      return real.call(this, value, key);
    };
  IDBObjectStore.prototype.put = refusing(realPut) as unknown as IDBObjectStore["put"];
  IDBObjectStore.prototype.add = refusing(realAdd) as unknown as IDBObjectStore["add"];
}

afterEach(() => {
  IDBObjectStore.prototype.put = realPut as unknown as IDBObjectStore["put"];
  IDBObjectStore.prototype.add = realAdd as unknown as IDBObjectStore["add"];
});

const open = (options: { chunkForm?: "blob" | "bytes" } = {}): CutpointDb =>
  createDb(`t-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange, ...options });

function entries(n: number, size: number): SessionEntry[] {
  const out: SessionEntry[] = [];
  let parent: string | null = null;
  for (let i = 0; i < n; i++) {
    const id = i.toString(16).padStart(8, "0");
    out.push(
      msg(id, parent, i % 2 ? assistant(`a${i} ${"é".repeat(size)}`) : user(`q${i} ${"x".repeat(size)}`)),
    );
    parent = id;
  }
  return out;
}

async function exportBytes(db: CutpointDb, id: string): Promise<Uint8Array> {
  const r = await exportSessionBlob(db, id);
  if (!r.ok) throw new Error(r.error.message);
  return new Uint8Array(await r.value.blob.arrayBuffer());
}

describe("chunk form", () => {
  it("is blob where Blobs are kept, and the probe leaves no row", async () => {
    const db = open();
    expect(await probeChunkForm(db)).toBe("blob");
    expect(await db.chunks.count()).toBe(0);
    db.close();
  });

  it("is bytes where the engine refuses Blobs, found once", async () => {
    refuseBlobs();
    const db = open();
    expect(db.chunkStorage.known()).toBeUndefined();
    expect(await db.chunkStorage.form()).toBe("bytes");
    expect(db.chunkStorage.known()).toBe("bytes");
    expect(await db.chunks.count()).toBe(0);
    db.close();
  });

  it("stores, reads, appends and exports the same bytes with Blobs refused as with Blobs kept", async () => {
    const h = header({ id: "s1" });
    const all = entries(400, 600);
    // The second append is bigger than a string chunk: stored as a Blob or as bytes.
    expect(all.slice(300, 399).reduce((n, e) => n + JSON.stringify(e).length, 0)).toBeGreaterThan(
      STRING_CHUNK_MAX_CHARS,
    );
    const store = async (db: CutpointDb) => {
      expect((await saveSession(db, prepareSession(h, all.slice(0, 300)), "new", 1)).ok).toBe(true);
      expect((await appendEntries(db, "s1", all.slice(300, 399), 2)).ok).toBe(true);
      expect((await appendEntries(db, "s1", all.slice(399), 3)).ok).toBe(true);
    };
    const blobs = open();
    await store(blobs);
    expect(await blobs.chunkStorage.form()).toBe("blob");
    refuseBlobs();
    const refused = open();
    await store(refused);
    expect(refused.chunkStorage.known()).toBe("bytes");

    const rows = await readChunks(refused, "s1");
    expect(rows.filter((r) => r.data instanceof Blob)).toEqual([]);
    expect(rows.at(-2)!.data).toBeInstanceOf(Uint8Array);
    expect(rows.at(-1)!.data).toBeTypeOf("string");
    const blobRows = await readChunks(blobs, "s1");
    expect(blobRows.at(-2)!.data).toBeInstanceOf(Blob);

    expect(await readEntries(refused, "s1")).toEqual(all);
    expect(await readEntries(blobs, "s1")).toEqual(all);
    const a = await exportBytes(refused, "s1");
    const b = await exportBytes(blobs, "s1");
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect(new TextDecoder().decode(a)).toBe([h, ...all].map((o) => `${JSON.stringify(o)}\n`).join(""));
    blobs.close();
    refused.close();
  });

  it("falls back to bytes when a write of Blobs is refused after the probe said yes", async () => {
    const db = open({ chunkForm: "blob" });
    refuseBlobs();
    const all = entries(50, 3000);
    const saved = await saveSession(db, prepareSession(header({ id: "s2" }), all), "new", 1);
    expect(saved.ok).toBe(true);
    expect(db.chunkStorage.known()).toBe("bytes");
    expect(await readEntries(db, "s2")).toEqual(all);
    db.close();
  });
});

describe("storage errors in plain words", () => {
  const dexieLike = (name: string, message: string, inner?: unknown) =>
    Object.assign(new Error(message), { name, inner });

  it("knows WebKit's Blob refusals, new and old", () => {
    const webkit = new DOMException(
      "Error preparing Blob/File data to be stored in object store",
      "UnknownError",
    );
    expect(isBlobRefusal(webkit)).toBe(true);
    expect(isBlobRefusal(dexieLike("AbortError", "chunks.bulkAdd(): aborted", webkit))).toBe(true);
    expect(isBlobRefusal(new DOMException("BlobURLs are not yet supported.", "DataCloneError"))).toBe(true);
    expect(isBlobRefusal(new DOMException("The transaction was aborted", "AbortError"))).toBe(false);
  });

  it("never shows the library's message; keeps it as the detail", () => {
    const bulk = dexieLike(
      "BulkError",
      "chunks.bulkAdd(): 3 of 3 operations failed. Errors: UnknownError: Error preparing Blob/File data",
    );
    const cases: [unknown, string, string][] = [
      [bulk, "unknown", STORAGE_REFUSED_FILES],
      [dexieLike("MissingAPIError", "IndexedDB API missing"), "unavailable", STORAGE_UNAVAILABLE],
      [
        dexieLike("OpenFailedError", "InvalidStateError A mutation operation was attempted"),
        "unavailable",
        STORAGE_UNAVAILABLE,
      ],
      [dexieLike("AbortError", "Transaction aborted"), "unknown", STORAGE_FAILED],
      [
        dexieLike("AbortError", "aborted", new DOMException("full", "QuotaExceededError")),
        "quota",
        expect.stringContaining("full") as unknown as string,
      ],
    ];
    for (const [e, kind, message] of cases) {
      const r = toDbError(e);
      expect(r.error.kind).toBe(kind);
      expect(r.error.message).toEqual(message);
      expect(r.error.message).not.toMatch(/bulkAdd|Error:|API missing|mutation operation/);
      expect(r.error.detail).toContain((e as Error).message);
    }
  });
});
