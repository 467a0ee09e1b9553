/// <reference types="vite-plugin-pwa/vanillajs" />
/**
 * Registers the service worker (built by vite-plugin-pwa, see vite.config.ts), loaded after the
 * app has rendered so it is not part of the initial bundle. A new version is only offered
 * ("Reload to update"): the page is never reloaded by itself. While the app stays open, it looks
 * for a new version every hour.
 */
import { registerSW } from "virtual:pwa-register";
import { usePwaStore } from "./pwa-state.ts";

const CHECK_EVERY_MS = 60 * 60 * 1000;
/** "Reload to update" reloads by itself this long after the new worker was asked to take over. */
const RELOAD_FALLBACK_MS = 3000;

/**
 * Applies the waiting version and reloads: on the new worker taking control, or after a moment
 * in any case. The library's own reload waits for an event that does not always come (a worker
 * that was already waiting when the page loaded, or one activated by another tab meanwhile).
 */
async function applyUpdate(update: (reload: boolean) => Promise<void>): Promise<void> {
  let reloaded = false;
  const reload = () => {
    if (reloaded) return;
    reloaded = true;
    window.location.reload();
  };
  navigator.serviceWorker.addEventListener("controllerchange", reload, { once: true });
  window.setTimeout(reload, RELOAD_FALLBACK_MS);
  await update(true);
}

export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  const update = registerSW({
    onNeedRefresh: () => usePwaStore.getState().offerUpdate(() => applyUpdate(update)),
    onRegisteredSW: (_url, registration) => {
      if (!registration) return;
      setInterval(() => {
        if (navigator.onLine) void registration.update().catch(() => undefined);
      }, CHECK_EVERY_MS);
    },
    // No worker (blocked, private mode, insecure origin): the app works online as usual.
    onRegisterError: () => undefined,
  });
}
