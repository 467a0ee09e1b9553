/**
 * The sync engine of this page: runs rounds against the target the person set (never before),
 * one at a time across this browser's tabs (a Web Lock), on demand, after local changes, every
 * minute and when the device comes back online; tells its status (per session: synced, N entries
 * waiting, or the error and its reason) to whoever subscribes. A round: read every device's
 * manifest, apply deletes, pull and push each local session, fetch small sessions that are only on
 * the target, then write this device's manifest.
 */

import { sessionTitle } from "../../core/session/session-name.ts";
import { deviceOfManifest, MANIFEST_DIR, manifestFolders, manifestKey } from "../../core/sync/layout.ts";
import { type DeviceManifest, parseManifest, remoteSessions } from "../../core/sync/manifest.ts";
import {
  type CutpointDb,
  getSession,
  listDeletedSessions,
  listSessions,
  onEntriesAppended,
} from "../../db/index.ts";
import { type KeyStores, keyStatus } from "../keys/key-vault.ts";
import {
  describeTarget,
  deviceId,
  deviceSalt,
  loadSyncConfig,
  openStore,
  readSecrets,
  targetName,
  targetUrl,
} from "./sync-config.ts";
import { createSyncCipher, type SyncCipher } from "./sync-crypto.ts";
import { applyDeletes } from "./sync-deletes.ts";
import { fetchInto } from "./sync-fetch.ts";
import { type ObjectIo, readText, writeText } from "./sync-objects.ts";
import { pullSession, pushSession, type RoundContext } from "./sync-session.ts";
import { loadOwnManifest, loadSessionState, saveOwnManifest } from "./sync-state.ts";
import { allSessionStatuses, type SessionSyncStatus, type SyncStatus, sessionStatus } from "./sync-status.ts";
import { done, failed, type SyncFailure, type SyncResult } from "./sync-transport.ts";

/** Sessions on the target up to this size are fetched without asking; bigger ones on demand. */
export const AUTO_FETCH_BYTES = 2 * 1024 * 1024;

export type { SessionSyncStatus, SyncStatus } from "./sync-status.ts";

export interface SyncEngine {
  status(): SyncStatus;
  subscribe(listener: () => void): () => void;
  /**
   * Runs a round now, or right after the one running (a round that starts after the call, either
   * way). `interactive`: the person asked, so locked
   * credentials may be unlocked (the passphrase prompt); background rounds never prompt.
   */
  syncNow(interactive?: boolean): Promise<SyncStatus>;
  /** Fetches one session that is on the target only. */
  fetchSession(id: string): Promise<SyncResult<void>>;
  /** Re-reads the setup (after Settings saved or cleared it). */
  reconfigure(): Promise<void>;
  stop(): void;
}

export interface SyncEngineDeps {
  db: CutpointDb;
  stores: KeyStores;
  /** Ms between rounds while a target is set. */
  intervalMs?: number;
  /** Ms after a local change before a round. */
  debounceMs?: number;
  /** PBKDF2 iterations of the sync key (tests lower it). */
  iterations?: number;
  /** The network (tests drop connections with it). */
  fetch?: typeof fetch;
}

interface ManifestsRead {
  manifests: DeviceManifest[];
  /** Why some device's manifest could not be read (another passphrase, or none here). */
  unreadable?: string;
}

async function readManifests(io: ObjectIo): Promise<SyncResult<ManifestsRead>> {
  const names = await io.store.list(MANIFEST_DIR);
  if (!names.ok) return names;
  const out: DeviceManifest[] = [];
  let unreadable: string | undefined;
  for (const name of names.value) {
    const device = deviceOfManifest(name);
    if (!device) continue;
    const text = await readText(io, manifestKey(device));
    if (!text.ok) {
      // Encrypted with a passphrase this device does not have: its sessions stay unread, ours go on.
      if (
        text.error.kind === "auth" &&
        !text.error.message.startsWith("The bucket") &&
        !text.error.message.startsWith("The folder")
      ) {
        unreadable = text.error.message;
        continue;
      }
      return text;
    }
    const parsed = text.value === null ? undefined : parseManifest(text.value, device);
    // Half-written (a WebDAV server without atomic PUT): read again next round.
    if (parsed?.ok) out.push(parsed.manifest);
  }
  return done({ manifests: out, unreadable });
}

async function withRoundLock<T>(run: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  return locks ? (locks.request("cutpoint-sync-round", run) as Promise<T>) : run();
}

export function createSyncEngine(deps: SyncEngineDeps): SyncEngine {
  const { db, stores } = deps;
  let status: SyncStatus = { phase: "off", sessions: {}, remote: [] };
  const listeners = new Set<() => void>();
  const set = (next: Partial<SyncStatus>) => {
    status = { ...status, ...next };
    for (const l of listeners) l();
  };
  let running: Promise<SyncStatus> | undefined;
  /** The round that follows the one running, when asked for meanwhile. */
  let queued: Promise<SyncStatus> | undefined;
  let queuedInteractive = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let debounce: ReturnType<typeof setTimeout> | undefined;
  /** What stopped the last round (shown on sessions whose entries wait). */
  let lastFailure: SyncFailure | undefined;
  /** The sync key, derived once per passphrase (PBKDF2 is slow on purpose). */
  let ciphers: { passphrase: string; reader: SyncCipher } | undefined;

  async function open(
    interactive: boolean,
  ): Promise<SyncResult<{ ctx: RoundContext; label: string; name: string } | null>> {
    const config = await loadSyncConfig(db);
    if (!config) return done(null);
    if (!interactive && (await keyStatus(stores, targetUrl(config.target))).key?.locked)
      return failed(
        "auth",
        "The sync credentials are locked with a passphrase: press Sync now to unlock them.",
      );
    const secrets = await readSecrets(stores, config.target);
    if (!secrets.ok) return secrets;
    const store = openStore(config.target, secrets.value, deps.fetch);
    if (!store.ok) return store;
    const device = await deviceId(db);
    const { passphrase } = secrets.value;
    if (passphrase !== "" && ciphers?.passphrase !== passphrase)
      ciphers = { passphrase, reader: createSyncCipher(passphrase, await deviceSalt(db), deps.iterations) };
    const reader = passphrase === "" ? undefined : ciphers?.reader;
    const io: ObjectIo = { store: store.value, cipher: config.encrypt ? reader : undefined, reader };
    const own = await loadOwnManifest(db, device);
    const ctx: RoundContext = {
      db,
      io,
      device,
      manifests: [],
      own,
      onProgress: (sessionId, d, total) => set({ progress: { sessionId, done: d, total } }),
    };
    return done({ ctx, label: describeTarget(config.target), name: targetName(config.target) });
  }

  async function round(interactive: boolean): Promise<SyncStatus> {
    const opened = await open(interactive);
    if (!opened.ok) {
      set({ phase: "error", message: opened.error.message });
      return status;
    }
    if (opened.value === null) {
      set({
        phase: "off",
        target: undefined,
        targetName: undefined,
        message: undefined,
        sessions: {},
        remote: [],
      });
      return status;
    }
    const { ctx, label, name } = opened.value;
    set({ phase: "running", target: label, targetName: name });
    const manifests = await readManifests(ctx.io);
    if (!manifests.ok) return finish(ctx, manifests.error, {});
    ctx.manifests = manifests.value.manifests;
    const deletes = await applyDeletes(ctx);
    if (!deletes.ok) return finish(ctx, deletes.error, {});
    const sessions: Record<string, SessionSyncStatus> = {};
    let firstError: SyncFailure | undefined;
    for (const listed of await listSessions(db)) {
      const state0 = await loadSessionState(db, listed.id, listed.generation);
      const pulled = await pullSession(ctx, listed, state0);
      const row = (await getSession(db, listed.id)) ?? listed;
      const state = await loadSessionState(db, row.id, row.generation);
      const pushed = pulled.ok ? await pushSession(ctx, row, state) : pulled;
      if (pushed.ok) sessions[row.id] = { title: sessionTitle(row), state: "synced" };
      else {
        firstError ??= pushed.error;
        const now = await sessionStatus(db, row);
        const entries = now.state === "synced" ? 0 : now.entries;
        sessions[row.id] = { title: now.title, state: "error", entries, message: pushed.error.message };
        // Wrong credentials, an unreachable or full target fail every session alike.
        if (pushed.error.kind !== "other") break;
      }
    }
    if (!firstError) {
      const here = new Set(
        [...(await listSessions(db)), ...(await listDeletedSessions(db))].map((r) => r.id),
      );
      for (const remote of remoteSessions(ctx.manifests)) {
        if (here.has(remote.id) || remote.deleted || remote.bytes > AUTO_FETCH_BYTES) continue;
        const fetched = await fetchInto(ctx, remote);
        if (!fetched.ok) firstError ??= fetched.error;
        else sessions[remote.id] = { title: remote.title, state: "synced" };
      }
    }
    return finish(ctx, firstError, sessions, manifests.value.unreadable);
  }

  async function finish(
    ctx: RoundContext,
    error: SyncFailure | undefined,
    sessions: Record<string, SessionSyncStatus>,
    notice?: string,
  ) {
    let failure = error;
    const before = ctx.manifests.find((m) => m.device === ctx.device);
    // Written even after a failed session: the chunks that did go up are counted.
    if (JSON.stringify(before) !== JSON.stringify(ctx.own)) {
      await saveOwnManifest(db, ctx.own);
      const folders = await ctx.io.store.ensureFolders(manifestFolders());
      const put = folders.ok
        ? await writeText(ctx.io, manifestKey(ctx.device), JSON.stringify(ctx.own), "application/json")
        : folders;
      if (!put.ok) failure ??= put.error;
    }
    const here = new Set([...(await listSessions(db)), ...(await listDeletedSessions(db))].map((r) => r.id));
    const remote = remoteSessions(ctx.manifests.map((m) => (m.device === ctx.device ? ctx.own : m))).filter(
      (r) => !here.has(r.id) && !r.deleted,
    );
    lastFailure = failure;
    const message = failure?.message ?? notice;
    set({
      phase: message ? "error" : "idle",
      message,
      sessions: await allSessionStatuses(db, sessions, failure),
      remote,
      progress: undefined,
      ...(failure ? {} : { lastSyncedAt: Date.now() }),
    });
    return status;
  }

  function start(interactive: boolean): Promise<SyncStatus> {
    const round$ = withRoundLock(() => round(interactive))
      .catch((e: unknown) => {
        set({ phase: "error", message: `Sync stopped: ${(e as Error).message ?? String(e)}` });
        return status;
      })
      .finally(() => {
        if (running === round$) running = undefined;
      });
    running = round$;
    return round$;
  }

  function syncNow(interactive = false): Promise<SyncStatus> {
    if (!running) return start(interactive);
    // A round already under way may have read the sessions before the change asked about: one more
    // round follows it (one, however many ask meanwhile), and that is the one every caller waits for.
    queuedInteractive ||= interactive;
    queued ??= running.then(() => {
      const asked = queuedInteractive;
      queued = undefined;
      queuedInteractive = false;
      return start(asked);
    });
    return queued;
  }

  /** A local append: its session's count of entries waiting, at once; a round soon after. */
  const appended = async (sessionId: string) => {
    const row = await getSession(db, sessionId);
    if (!row) return;
    const now = await sessionStatus(db, row, lastFailure);
    if (status.phase !== "off") set({ sessions: { ...status.sessions, [sessionId]: now } });
  };
  const soon = () => {
    if (status.phase === "off") return;
    clearTimeout(debounce);
    debounce = setTimeout(() => void syncNow(), deps.debounceMs ?? 1500);
  };
  const stopAppended = onEntriesAppended(db, (a) => {
    void appended(a.sessionId);
    soon();
  });
  const online = () => soon();
  if (typeof window !== "undefined") window.addEventListener("online", online);
  timer = setInterval(() => status.phase !== "off" && void syncNow(), deps.intervalMs ?? 60_000);

  return {
    status: () => status,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    syncNow,
    async fetchSession(id) {
      const opened = await open(true);
      if (!opened.ok) return opened;
      if (!opened.value) return failed("other", "Set a sync target first.");
      const { ctx } = opened.value;
      const manifests = await readManifests(ctx.io);
      if (!manifests.ok) return manifests;
      ctx.manifests = manifests.value.manifests;
      const remote = remoteSessions(ctx.manifests).find((r) => r.id === id);
      if (!remote) return failed("missing", "That session is no longer on the target.");
      const r = await fetchInto(ctx, remote);
      if (r.ok) {
        // Here now: no longer listed as only on the target.
        set({ remote: status.remote.filter((x) => x.id !== id) });
        void syncNow();
      }
      return r;
    },
    async reconfigure() {
      await syncNow();
    },
    stop() {
      stopAppended();
      clearInterval(timer);
      clearTimeout(debounce);
      if (typeof window !== "undefined") window.removeEventListener("online", online);
    },
  };
}
