/** Keeps the open session in the URL hash (#/s/<id>) and remembers it, so a reload (or a visit to "/") reopens it. */
import { useEffect } from "react";
import { rememberOpenSession } from "../../services/session/sessions-last-open.ts";
import { useUiStore } from "../../store/ui-store.ts";

const PREFIX = "#/s/";

/** The session the URL names (#/s/<id>), if any. */
export function sessionInHash(): string | undefined {
  return location.hash.startsWith(PREFIX)
    ? decodeURIComponent(location.hash.slice(PREFIX.length))
    : undefined;
}

export function useHashRoute(): void {
  useEffect(() => {
    // Usually selected already, before the first render (main.tsx: no empty view first).
    const initial = sessionInHash();
    if (initial && initial !== useUiStore.getState().selectedSessionId)
      useUiStore.getState().selectSession(initial);
    const onHash = () => {
      const id = sessionInHash();
      if (id !== useUiStore.getState().selectedSessionId) useUiStore.getState().selectSession(id);
    };
    window.addEventListener("hashchange", onHash);
    const unsub = useUiStore.subscribe((s, prev) => {
      if (s.selectedSessionId === prev.selectedSessionId) return;
      rememberOpenSession(localStorage, s.selectedSessionId);
      const want = s.selectedSessionId ? `${PREFIX}${encodeURIComponent(s.selectedSessionId)}` : "";
      if (location.hash !== want) history.pushState(null, "", want || location.pathname);
    });
    return () => {
      window.removeEventListener("hashchange", onHash);
      unsub();
    };
  }, []);
}
