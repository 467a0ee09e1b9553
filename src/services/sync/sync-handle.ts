/**
 * The tab's handle on its sync engine, owned by the tab's services (services/app/app-services.ts):
 * the engine starts on first use (its code loads then), and its status can be followed before the
 * start (it reads "off" until the engine is there).
 */
import type { SyncEngine, SyncStatus } from "./sync-engine.ts";

export interface SyncHandle {
  /** The engine, started on the first call; every later call gets the same one. */
  engine(): Promise<SyncEngine>;
  /** The engine's status, or "off" while it has not started. */
  status(): SyncStatus;
  /** Hears the engine's status changes, and its start; starts the engine; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

const OFF: SyncStatus = { phase: "off", sessions: {}, remote: [] };

export function createSyncHandle(start: () => Promise<SyncEngine>): SyncHandle {
  let started: Promise<SyncEngine> | undefined;
  let current: SyncEngine | undefined;
  const engine = () => {
    started ??= start().then((e) => {
      current = e;
      return e;
    });
    return started;
  };
  return {
    engine,
    status: () => current?.status() ?? OFF,
    subscribe(listener) {
      if (current) return current.subscribe(listener);
      let stopped = false;
      let stop: (() => void) | undefined;
      void engine().then((e) => {
        if (stopped) return;
        stop = e.subscribe(listener);
        listener();
      });
      return () => {
        stopped = true;
        stop?.();
      };
    },
  };
}
