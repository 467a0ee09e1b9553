/** The tab's sync handle: one engine for every caller, "off" before the start, and followers told of the start. */
import { describe, expect, it } from "vitest";
import type { SyncEngine, SyncStatus } from "./sync-engine.ts";
import { createSyncHandle } from "./sync-handle.ts";

function fakeEngine(status: SyncStatus): SyncEngine & { listeners: Set<() => void> } {
  const listeners = new Set<() => void>();
  const engine = {
    listeners,
    status: () => status,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return engine as unknown as SyncEngine & { listeners: Set<() => void> };
}

const IDLE: SyncStatus = { phase: "idle", sessions: {}, remote: [] };

describe("createSyncHandle", () => {
  it("starts the engine once, on first use, for every caller", async () => {
    let starts = 0;
    const engine = fakeEngine(IDLE);
    const handle = createSyncHandle(async () => {
      starts++;
      return engine;
    });
    expect(starts).toBe(0);
    const [a, b] = await Promise.all([handle.engine(), handle.engine()]);
    expect(a).toBe(engine);
    expect(b).toBe(engine);
    expect(starts).toBe(1);
  });

  it("reads off until the engine is there, then the engine's status", async () => {
    const handle = createSyncHandle(async () => fakeEngine(IDLE));
    expect(handle.status().phase).toBe("off");
    await handle.engine();
    expect(handle.status()).toBe(IDLE);
  });

  it("tells a follower of the start and then follows the engine", async () => {
    const engine = fakeEngine(IDLE);
    const handle = createSyncHandle(async () => engine);
    const heard: string[] = [];
    const stop = handle.subscribe(() => heard.push(handle.status().phase));
    await handle.engine();
    await Promise.resolve();
    expect(heard).toEqual(["idle"]);
    expect(engine.listeners.size).toBe(1);
    stop();
    expect(engine.listeners.size).toBe(0);
  });

  it("leaves a follower that stopped before the start unsubscribed", async () => {
    const engine = fakeEngine(IDLE);
    const handle = createSyncHandle(async () => engine);
    const heard: string[] = [];
    handle.subscribe(() => heard.push("told"))();
    await handle.engine();
    await Promise.resolve();
    expect(heard).toEqual([]);
    expect(engine.listeners.size).toBe(0);
  });
});
