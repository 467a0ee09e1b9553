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

export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  const update = registerSW({
    onNeedRefresh: () => usePwaStore.getState().offerUpdate(() => update(true)),
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
