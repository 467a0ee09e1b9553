/**
 * Mounts sync (imported once by src/main.tsx): the Settings → Sync form, loaded on demand, and
 * `startSyncAfterLoad`, which starts the tab's engine once the page has loaded. It sends nothing
 * until the person has set a target.
 */
import type { AppServices } from "../../services/app/app-services.ts";
import { registerLazySlot } from "../shell/slots.ts";

registerLazySlot(
  "settings",
  () => import("./sync-settings.tsx"),
  (m) => m.SyncSettings,
  "sync-settings",
);

/** Starts the tab's sync engine (and a first round) half a second after the page has loaded. */
export function startSyncAfterLoad(services: AppServices): void {
  const start = () => void services.sync.engine().then((engine) => engine.syncNow());
  if (document.readyState === "complete") setTimeout(start, 500);
  else window.addEventListener("load", () => setTimeout(start, 500), { once: true });
}
