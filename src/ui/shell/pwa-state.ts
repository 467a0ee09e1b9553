/**
 * Transient state of the installed app (zustand): whether the browser is online, and whether a
 * new version of the app waits to be applied (with the function that applies it).
 */
import { create } from "zustand";

export interface PwaState {
  online: boolean;
  /** A new service worker is installed and waiting: "Reload to update" applies it. */
  updateReady: boolean;
  /** The person chose "Later" for the waiting version (offered again on the next one). */
  updateDismissed: boolean;
  applyUpdate: () => Promise<void>;
  setOnline(online: boolean): void;
  offerUpdate(apply: () => Promise<void>): void;
  dismissUpdate(): void;
}

export const usePwaStore = create<PwaState>()((set) => ({
  online: typeof navigator === "undefined" ? true : navigator.onLine,
  updateReady: false,
  updateDismissed: false,
  applyUpdate: async () => {},
  setOnline: (online) => set({ online }),
  offerUpdate: (applyUpdate) => set({ updateReady: true, updateDismissed: false, applyUpdate }),
  dismissUpdate: () => set({ updateDismissed: true }),
}));

/** Follows the browser's online/offline events (call once at start-up). */
export function watchConnectivity(): () => void {
  const update = () => usePwaStore.getState().setOnline(navigator.onLine);
  window.addEventListener("online", update);
  window.addEventListener("offline", update);
  update();
  return () => {
    window.removeEventListener("online", update);
    window.removeEventListener("offline", update);
  };
}
