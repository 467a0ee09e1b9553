/**
 * The key vault: AES-GCM/PBKDF2 encryption, keys bound to origins, kept on the device, in the tab or under
 * a passphrase (locked after a reload), moved between modes, and v1 keys migrated by schema v2.
 */
import { Dexie } from "dexie";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type CutpointDb, createDb, type KeyStores, TAB_KEYS_ITEM } from "../../db/index.ts";
import { keyForRequest } from "../../llm/key-guard.ts";
import { decryptKey, encryptKey, MIN_PBKDF2_ITERATIONS, PBKDF2_ITERATIONS } from "./key-crypto.ts";
import {
  bindSavedKeyTo,
  keyRefFor,
  keyStatus,
  moveKey,
  preferredKeyMode,
  removeKeyFor,
  revealKeyFor,
  saveKey,
  setPassphrasePrompt,
} from "./key-vault.ts";

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  removeItem(k: string) {
    this.items.delete(k);
  }
  setItem(k: string, v: string) {
    this.items.set(k, v);
  }
}

const A = "http://127.0.0.1:4010/v1";
const B = "http://127.0.0.2:4010/v1";
/** Fast PBKDF2 for tests (the app always uses PBKDF2_ITERATIONS). */
const FAST = 1000;

let idb: IDBFactory;
let db: CutpointDb;
let stores: KeyStores;
let n = 0;
beforeEach(() => {
  idb = new IDBFactory();
  db = createDb(`vault-${++n}`, { indexedDB: idb, IDBKeyRange });
  stores = { db, tab: new MemoryStorage() };
});
afterEach(() => {
  setPassphrasePrompt(undefined);
  db.close();
});

/** Everything IndexedDB holds, as text. */
async function dump(d: CutpointDb): Promise<string> {
  const tables = await Promise.all(d.tables.map((t) => t.toArray()));
  return JSON.stringify(tables);
}

describe("key crypto", () => {
  it("round trip; a wrong passphrase gives null; salt and IV are random; PBKDF2 ≥ 310k by default", async () => {
    expect(PBKDF2_ITERATIONS).toBeGreaterThanOrEqual(MIN_PBKDF2_ITERATIONS);
    const enc = await encryptKey("sk-secret-value", "correct horse", FAST);
    expect(enc.kdf).toMatchObject({ name: "PBKDF2", hash: "SHA-256", iterations: FAST });
    expect(enc.cipher.name).toBe("AES-GCM");
    expect(JSON.stringify(enc)).not.toContain("sk-secret");
    expect(await decryptKey(enc, "correct horse")).toBe("sk-secret-value");
    expect(await decryptKey(enc, "wrong horse")).toBeNull();
    const again = await encryptKey("sk-secret-value", "correct horse", FAST);
    expect(again.kdf.salt).not.toBe(enc.kdf.salt);
    expect(again.cipher.iv).not.toBe(enc.cipher.iv);
    expect(again.ciphertext).not.toBe(enc.ciphertext);
  });

  it("the default iteration count really is used when none is given", async () => {
    const enc = await encryptKey("k", "p");
    expect(enc.kdf.iterations).toBe(PBKDF2_ITERATIONS);
  });
});

describe("key vault", () => {
  it("binds a key to its origin; another origin gets none until the person chooses to use it", async () => {
    expect((await saveKey(stores, { baseUrl: A, secret: " sk-aaa-111 ", mode: "device" })).ok).toBe(true);
    const refA = await keyRefFor(stores, A);
    expect(await keyForRequest(refA, A)).toEqual({ ok: true, secret: "sk-aaa-111" });
    expect(await keyRefFor(stores, "http://127.0.0.1:4010/other")).toBe(refA);
    expect(await keyRefFor(stores, B)).toBe("");
    expect((await keyForRequest(refA, B)).ok).toBe(false);

    const status = await keyStatus(stores, B);
    expect(status).toMatchObject({ origin: "http://127.0.0.2:4010", key: undefined });
    expect(status.others.map((o) => o.origins)).toEqual([["http://127.0.0.1:4010"]]);
    expect((await bindSavedKeyTo(stores, status.others[0]!.id, B)).ok).toBe(true);
    expect(await keyForRequest(await keyRefFor(stores, B), B)).toEqual({ ok: true, secret: "sk-aaa-111" });

    // Removing it at B keeps it at A; removing it at A too deletes it.
    await removeKeyFor(stores, B);
    expect(await keyRefFor(stores, B)).toBe("");
    expect(await keyRefFor(stores, A)).toBe(refA);
    await removeKeyFor(stores, A);
    expect(await keyRefFor(stores, A)).toBe("");
    expect(await db.apiKeys.count()).toBe(0);
  });

  it("a new key for an origin replaces the old one there; an invalid base URL saves nothing", async () => {
    await saveKey(stores, { baseUrl: A, secret: "sk-old-1", mode: "device" });
    await saveKey(stores, { baseUrl: A, secret: "sk-new-2", mode: "device" });
    expect(await keyForRequest(await keyRefFor(stores, A), A)).toEqual({ ok: true, secret: "sk-new-2" });
    expect(await db.apiKeys.count()).toBe(1);
    expect(await saveKey(stores, { baseUrl: "not a url", secret: "x", mode: "device" })).toMatchObject({
      ok: false,
    });
  });

  it("this tab only: kept in the tab's storage, never in IndexedDB, gone for another tab", async () => {
    await saveKey(stores, { baseUrl: A, secret: "sk-tab-only-1", mode: "tab" });
    expect(await dump(db)).not.toContain("sk-tab-only-1");
    expect(stores.tab?.getItem(TAB_KEYS_ITEM)).toContain("sk-tab-only-1");
    expect(await keyForRequest(await keyRefFor(stores, A), A)).toEqual({ ok: true, secret: "sk-tab-only-1" });
    const otherTab: KeyStores = { db, tab: new MemoryStorage() };
    expect(await keyRefFor(otherTab, A)).toBe("");
    expect(await preferredKeyMode(db)).toBe("tab");
    // Switching the same origin to the device moves it out of the tab.
    await saveKey(stores, { baseUrl: A, secret: "sk-device-2", mode: "device" });
    expect(stores.tab?.getItem(TAB_KEYS_ITEM)).toBeNull();
  });

  it("passphrase: only ciphertext stored; locked after a reload; a wrong passphrase is refused, nothing lost", async () => {
    const secret = "sk-passphrase-secret-1";
    await saveKey(stores, {
      baseUrl: A,
      secret,
      mode: "passphrase",
      passphrase: "pw-right",
      iterations: FAST,
    });
    const stored = await dump(db);
    expect(stored).not.toContain(secret);
    expect(stored).toContain("ciphertext");
    // Unlocked in the page that saved it.
    expect(await keyForRequest(await keyRefFor(stores, A), A)).toEqual({ ok: true, secret });

    // A "reload": fresh modules, same database.
    vi.resetModules();
    const vault = await import("./key-vault.ts");
    const guard = await import("../../llm/key-guard.ts");
    const db2 = createDb(db.name, { indexedDB: idb, IDBKeyRange });
    const stores2: KeyStores = { db: db2, tab: stores.tab };
    const ref = await vault.keyRefFor(stores2, A);
    expect((await vault.keyStatus(stores2, A)).key?.locked).toBe(true);
    // No prompt installed: refused, nothing sent.
    expect(await guard.keyForRequest(ref, A)).toMatchObject({ ok: false });
    const tried: boolean[] = [];
    vault.setPassphrasePrompt(async (request) => {
      expect(request.savedFor).toBe("http://127.0.0.1:4010");
      tried.push(await request.check("pw-wrong"));
      tried.push(await request.check("pw-right"));
      return true;
    });
    expect(await guard.keyForRequest(ref, A)).toEqual({ ok: true, secret });
    expect(tried).toEqual([false, true]);
    // Unlocked once per page: no second prompt.
    vault.setPassphrasePrompt(async () => {
      throw new Error("asked twice");
    });
    expect(await guard.keyForRequest(ref, A)).toEqual({ ok: true, secret });
    // Another origin is refused before any prompt.
    expect(await guard.keyForRequest(ref, B)).toMatchObject({ ok: false });
    db2.close();
  });

  it("passphrase declined: the request is refused with a clear message and the key stays", async () => {
    await saveKey(stores, {
      baseUrl: A,
      secret: "sk-p-2",
      mode: "passphrase",
      passphrase: "p",
      iterations: FAST,
    });
    vi.resetModules();
    const vault = await import("./key-vault.ts");
    const guard = await import("../../llm/key-guard.ts");
    vault.setPassphrasePrompt(async (request) => (await request.check("nope")) && false);
    const r = await guard.keyForRequest(await vault.keyRefFor(stores, A), A);
    expect(r).toEqual({
      ok: false,
      message: "The API key stays locked (no passphrase entered), so nothing was sent.",
    });
    expect(await db.apiKeys.count()).toBe(1);
    vault.setPassphrasePrompt(async (request) => request.check("p"));
    expect(await vault.revealKeyFor(stores, A)).toEqual({ ok: true, secret: "sk-p-2" });
  });

  it("moveKey keeps the same key and origins another way: device -> passphrase -> tab", async () => {
    await saveKey(stores, { baseUrl: A, secret: "sk-move-1", mode: "device" });
    await bindSavedKeyTo(stores, (await keyStatus(stores, A)).key!.id, B);
    const refA = await keyRefFor(stores, A);
    expect(
      (await moveKey(stores, { baseUrl: A, mode: "passphrase", passphrase: "pw", iterations: FAST })).ok,
    ).toBe(true);
    expect(await dump(db)).not.toContain("sk-move-1");
    expect((await keyStatus(stores, B)).key).toMatchObject({ mode: "passphrase", locked: false });
    expect(await keyRefFor(stores, A)).toBe(refA);
    expect(await keyForRequest(refA, B)).toEqual({ ok: true, secret: "sk-move-1" });
    expect((await moveKey(stores, { baseUrl: B, mode: "tab" })).ok).toBe(true);
    expect(await db.apiKeys.count()).toBe(0);
    expect(await keyForRequest(await keyRefFor(stores, A), A)).toEqual({ ok: true, secret: "sk-move-1" });
    expect(await moveKey(stores, { baseUrl: "http://127.0.0.9:1/v1", mode: "tab" })).toMatchObject({
      ok: false,
    });
  });

  it("revealKeyFor shows the bound key; none for another origin", async () => {
    await saveKey(stores, { baseUrl: A, secret: "sk-reveal-1", mode: "device" });
    expect(await revealKeyFor(stores, A)).toEqual({ ok: true, secret: "sk-reveal-1" });
    expect(await revealKeyFor(stores, B)).toMatchObject({ ok: false });
  });
});

describe("schema v2: v1 keys (one per provider) move to the keys table and keep working", () => {
  it("binds the key of the provider in use to its base URL and preset keys to their preset origin", async () => {
    const name = `v1-${++n}`;
    const v1 = new Dexie(name, { indexedDB: idb, IDBKeyRange });
    v1.version(1).stores({
      sessions: "id, updatedAt, deletedAt",
      chunks: "[sessionId+seq]",
      settings: "key",
    });
    await v1.table("settings").bulkPut([
      { key: "agent.provider", value: { providerId: "custom", baseUrl: "http://127.0.0.1:4010/v1" } },
      { key: "agent.apiKey.custom", value: "sk-legacy-custom" },
      { key: "agent.apiKey.groq", value: "sk-legacy-groq" },
      { key: "agent.apiKey.openai", value: "" },
    ]);
    v1.close();

    const upgraded = createDb(name, { indexedDB: idb, IDBKeyRange });
    const s: KeyStores = { db: upgraded, tab: undefined };
    expect(await upgraded.settings.where("key").startsWith("agent.apiKey.").count()).toBe(0);
    expect(await upgraded.apiKeys.count()).toBe(2);
    expect(await keyForRequest(await keyRefFor(s, A), A)).toEqual({ ok: true, secret: "sk-legacy-custom" });
    const groq = "https://api.groq.com/openai/v1";
    expect(await keyForRequest(await keyRefFor(s, groq), groq)).toEqual({
      ok: true,
      secret: "sk-legacy-groq",
    });
    // Bound now: the custom key does not follow a new base URL.
    expect(await keyRefFor(s, B)).toBe("");
    expect((await upgraded.apiKeys.toArray()).map((r) => r.origins).sort()).toEqual([
      ["http://127.0.0.1:4010"],
      ["https://api.groq.com"],
    ]);
    upgraded.close();
  });
});
