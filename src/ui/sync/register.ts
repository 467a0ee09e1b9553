/**
 * Mounts sync (imported once by src/main.tsx): the Settings → Sync form, loaded on demand, and the
 * engine, started when the page is idle. It sends nothing until the person has set a target.
 */
import { registerLazySlot } from "../shell/slots.ts";
import { appSyncEngine } from "./use-sync.ts";

registerLazySlot(
  "settings",
  () => import("./sync-settings.tsx"),
  (m) => m.SyncSettings,
  "sync-settings",
);

const start = () => void appSyncEngine().then((engine) => engine.syncNow());
if (typeof window !== "undefined") {
  if (document.readyState === "complete") setTimeout(start, 500);
  else window.addEventListener("load", () => setTimeout(start, 500), { once: true });
}
