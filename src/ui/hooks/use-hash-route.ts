/** Keeps the open session in the URL hash (#/s/<id>) so a reload reopens it. */
import { useEffect } from "react";
import { useUiStore } from "../../store/ui-store.ts";

const PREFIX = "#/s/";

function fromHash(): string | undefined {
  return location.hash.startsWith(PREFIX)
    ? decodeURIComponent(location.hash.slice(PREFIX.length))
    : undefined;
}

export function useHashRoute(): void {
  useEffect(() => {
    const initial = fromHash();
    if (initial) useUiStore.getState().selectSession(initial);
    const onHash = () => {
      const id = fromHash();
      if (id !== useUiStore.getState().selectedSessionId) useUiStore.getState().selectSession(id);
    };
    window.addEventListener("hashchange", onHash);
    const unsub = useUiStore.subscribe((s, prev) => {
      if (s.selectedSessionId === prev.selectedSessionId) return;
      const want = s.selectedSessionId ? `${PREFIX}${encodeURIComponent(s.selectedSessionId)}` : "";
      if (location.hash !== want) history.pushState(null, "", want || location.pathname);
    });
    return () => {
      window.removeEventListener("hashchange", onHash);
      unsub();
    };
  }, []);
}
