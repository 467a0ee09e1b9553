/** The page's sync engine (started once, after the app has loaded) and a hook that follows its status. */
import { useSyncExternalStore } from "react";
import type { SyncEngine, SyncStatus } from "../../services/sync/sync-engine.ts";

let engine: Promise<SyncEngine> | undefined;

/** The engine, started on first use (its code loads then: it is not in the initial bundle). */
export function appSyncEngine(): Promise<SyncEngine> {
  engine ??= import("../../services/sync/sync-app.ts").then((m) => m.startAppSync());
  return engine;
}

const OFF: SyncStatus = { phase: "off", sessions: {}, remote: [] };
let current: SyncEngine | undefined;
const waiting = new Set<() => void>();

export function useSyncStatus(): SyncStatus {
  return useSyncExternalStore(
    (listener) => {
      if (current) return current.subscribe(listener);
      waiting.add(listener);
      let stop: (() => void) | undefined;
      void appSyncEngine().then((e) => {
        current = e;
        if (waiting.delete(listener)) {
          stop = e.subscribe(listener);
          listener();
        }
      });
      return () => {
        waiting.delete(listener);
        stop?.();
      };
    },
    () => current?.status() ?? OFF,
  );
}
