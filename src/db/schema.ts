/**
 * The Dexie database of Cutpoint. Two version numbers exist (architecture.md, convention 4):
 * the session format version (core/session/migrate) and this schema version. Add a new
 * `this.version(n)` with an `upgrade()` only when data has to move.
 *
 * Tables:
 * - `sessions`: metadata only (the session list never reads entries).
 * - `chunks`: the entries, as a Blob of the v3 JSONL of N consecutive entries per row (chunks.ts).
 * - `settings`: key/value (provider, model, compaction settings, ...).
 * - `apiKeys` (v2): API keys, each bound to the origins it may be sent to (keys-repo.ts). v2 moves
 *   the v1 per-provider keys (`agent.apiKey.<provider>` settings) there.
 * - `replyCheckpoints` (v3): the reply being streamed, one row per session, saved as it arrives
 *   and removed when the reply is appended (reply-checkpoints.ts); apart from the entries, so an
 *   unfinished reply never becomes part of the session unless the person keeps it.
 * - `chunkTokens` (v4): the token estimates of each chunk's entries, made once and read back on
 *   later opens instead of counted again (chunk-tokens.ts; derived data: a missing or stale row
 *   only means counting again). Each row also holds the chunk's outline (`outline`: what the
 *   views read, without the messages' bodies), so a reopen shows the whole session before the
 *   bodies are parsed.
 */
import { Dexie, type EntityTable, type Table } from "dexie";
import type { AssistantMessage, SessionEntry, SessionHeader } from "../core/session/types.ts";
import { type ChunkForm, type ChunkStorage, createChunkStorage } from "./chunk-form.ts";

export const DB_NAME = "cutpoint";

export interface SessionRow {
  /** = header.id */
  id: string;
  header: SessionHeader;
  /** Latest session_info name; undefined shows the first user message instead. */
  name: string | undefined;
  firstUserMessage: string;
  /** ms since epoch: the header's timestamp. */
  createdAt: number;
  /** ms since epoch: last write (import, append, rename). */
  updatedAt: number;
  entryCount: number;
  /** UTF-8 size of the v3 export (header line + entries). */
  byteSize: number;
  /** The current leaf (null = before the first entry). */
  leafId: string | null;
  /** Highest chunk seq written (chunks are 1..lastSeq). */
  lastSeq: number;
  /** Bumped when the entries are replaced as a whole (re-import "replace"): readers reload. */
  generation: number;
  /** Format version of the imported file before migration (3 for sessions made here). */
  originalVersion: number;
  /** Soft delete (for Undo); purged later. Indexed as 0 when not deleted. */
  deletedAt: number;
  /** `<page>#<run>` while a tab runs the agent in this session (run-gate.ts). */
  runOwner?: string;
  /** The file this session follows while pi writes it (a path in pi's sessions folder): only the follow appends. */
  followedFrom?: string;
}

/** The reply streaming in a session (at most one), as last checkpointed. */
export interface ReplyCheckpointRow {
  sessionId: string;
  /** The run mark (run-gate.ts) of the run streaming it. */
  run: string;
  /** The entry the reply chains to (the session's leaf while it streams). */
  parentId: string | null;
  /** The partial reply (content so far; stopReason as the stream had it). */
  message: AssistantMessage;
  /** ms since epoch of this checkpoint. */
  savedAt: number;
}

/** What a chunk row holds (chunk-form.ts says which of the forms this database writes). */
export type StoredChunkData = Blob | string | Uint8Array<ArrayBuffer>;

export interface ChunkRow {
  sessionId: string;
  seq: number;
  /**
   * JSONL of the entries, each line ending in "\n" (read with `chunkText` / `chunkBytes`): a Blob
   * of UTF-8 bytes, or a string for a small chunk (`STRING_CHUNK_MAX_CHARS`; appends), or the
   * UTF-8 bytes themselves where the engine refuses Blobs in IndexedDB (chunk-form.ts).
   */
  data: StoredChunkData;
  count: number;
  bytes: number;
  /** Generation of the session this chunk belongs to. */
  generation: number;
}

/** The token estimates of one chunk's entries (core/compaction/stored-estimates.ts). */
export interface ChunkTokensRow {
  sessionId: string;
  seq: number;
  /** The session's generation they were made for (another: not used). */
  generation: number;
  /** The counting rule (STORED_ESTIMATE_RULE); another: not used. */
  rule: string;
  /** One count per entry of the chunk, in order (NO_MESSAGE for an entry without a message). */
  tokens: Uint32Array;
  /**
   * The chunk's outline (core/session/outline.ts: its entries without the messages' bodies), made
   * with the counts; absent in rows written before outlines were kept (a field, not an index: no
   * new schema version). Its own rule is inside it.
   */
  outline?: string;
}

/** An API key encrypted with a passphrase: only these values are stored (WebCrypto). */
export interface EncryptedKey {
  kdf: { name: "PBKDF2"; hash: "SHA-256"; iterations: number; salt: string };
  cipher: { name: "AES-GCM"; iv: string };
  /** base64 */
  ciphertext: string;
}

export type KeyStorageMode = "device" | "tab" | "passphrase";

/** One API key and where it may be sent. Mode "tab" rows live in sessionStorage, never here. */
export interface ApiKeyRow {
  id: string;
  /** Origins (scheme://host:port) the key is sent to; empty = only on an explicit choice. */
  origins: string[];
  mode: KeyStorageMode;
  /** Plain key (modes "device" and "tab"). */
  secret?: string;
  /** Mode "passphrase". */
  encrypted?: EncryptedKey;
  /** Who it was saved for, shown to the person (a provider name or an origin). */
  savedFor: string;
  /**
   * A v1 key (stored per provider, not yet bound): its provider and, when that provider was the
   * one in use, the base URL it was sent to.
   */
  legacy?: { providerId: string; baseUrl?: string };
  createdAt: number;
}

export interface SettingRow {
  key: string;
  value: unknown;
}

export type CutpointDb = Dexie & {
  sessions: EntityTable<SessionRow, "id">;
  chunks: Table<ChunkRow, [string, number]>;
  settings: EntityTable<SettingRow, "key">;
  apiKeys: EntityTable<ApiKeyRow, "id">;
  replyCheckpoints: EntityTable<ReplyCheckpointRow, "sessionId">;
  chunkTokens: Table<ChunkTokensRow, [string, number]>;
  /** Whether chunks are kept as Blobs or as bytes here (found once, chunk-form.ts). */
  chunkStorage: ChunkStorage;
  /** What this page (one tab's life) knows of its own writes: run-gate.ts, sessions-repo.ts. */
  page: PageWrites;
};

/** Entries appended in this page, as stored (chunk `seq`), once their transaction committed. */
export interface AppendedEntries {
  sessionId: string;
  generation: number;
  seq: number;
  /** Parsed back from the stored JSONL: equal to what a reader of the chunk gets. */
  entries: SessionEntry[];
}

/** The page's own write state, held by its database handle (passed to every reader and writer). */
export interface PageWrites {
  /** Runs of this page whose agent loop is writing: session id -> the run's mark (run-gate.ts). */
  loops: Map<string, string>;
  /** Told of every append this page commits (sessions-repo.ts `onEntriesAppended`). */
  appended: Set<(appended: AppendedEntries) => void>;
  /** Whether some tab holds the run lock of a session (append-at-leaf.ts; null: not known). */
  runLive: RunLiveness | null;
}

export type RunLiveness = (sessionId: string) => Promise<boolean>;

export interface DbDeps {
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
  /** The chunk form to use without probing the engine (tests). */
  chunkForm?: ChunkForm;
}

/** Opens (lazily, on first use) the database. Tests pass their own name and fake IndexedDB. */
export function createDb(name = DB_NAME, deps: DbDeps = {}): CutpointDb {
  const { chunkForm, ...dexieDeps } = deps;
  const db = new Dexie(name, dexieDeps) as CutpointDb;
  db.chunkStorage = createChunkStorage(db, chunkForm);
  db.page = { loops: new Map(), appended: new Set(), runLive: null };
  db.version(1).stores({
    sessions: "id, updatedAt, deletedAt",
    chunks: "[sessionId+seq]",
    settings: "key",
  });
  db.version(2)
    .stores({ apiKeys: "id, *origins" })
    .upgrade(async (tx) => {
      const settings = tx.table<SettingRow, string>("settings");
      const provider = (await settings.get(V1_PROVIDER_KEY))?.value as
        | { providerId?: unknown; baseUrl?: unknown }
        | undefined;
      const legacy = await settings.where("key").startsWith(V1_KEY_PREFIX).toArray();
      const now = Date.now();
      for (const row of legacy) {
        const providerId = row.key.slice(V1_KEY_PREFIX.length);
        if (typeof row.value !== "string" || row.value === "") continue;
        // Bound on first use to the origin it was sent to before (services/keys/key-vault.ts).
        await tx.table<ApiKeyRow, string>("apiKeys").add({
          id: `v1-${providerId}`,
          origins: [],
          mode: "device",
          secret: row.value,
          savedFor: providerId,
          legacy: {
            providerId,
            ...(provider?.providerId === providerId && typeof provider.baseUrl === "string"
              ? { baseUrl: provider.baseUrl }
              : {}),
          },
          createdAt: now,
        });
      }
      await settings.bulkDelete(legacy.map((r) => r.key));
    });
  db.version(3).stores({ replyCheckpoints: "sessionId" });
  db.version(4).stores({ chunkTokens: "[sessionId+seq]" });
  return db;
}

const V1_PROVIDER_KEY = "agent.provider";
const V1_KEY_PREFIX = "agent.apiKey.";
