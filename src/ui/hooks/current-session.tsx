/**
 * The open session, shared with every component under the session view (slots included):
 * `const { row, loaded } = useCurrentSession();` — `loaded.entries` are all entries in file
 * order; the tree data and path: `treeData` / `sessionPath` (src/ui/tree/tree-model.ts).
 */
import { createContext, type ReactNode, useContext, useMemo } from "react";
import { type SessionData, useSessionData } from "./use-session-data.ts";

/** The open session without its load progress (which has a context of its own). */
export type CurrentSession = Omit<SessionData, "loading">;

const CurrentSessionContext = createContext<CurrentSession>({
  row: undefined,
  loaded: undefined,
  preview: undefined,
  outline: undefined,
});
/**
 * The first load's progress apart: it changes every 100 ms while a big session loads, and only the
 * lines that show it re-render then (not every view of the session).
 */
const LoadProgressContext = createContext<number | undefined>(undefined);

export function CurrentSessionProvider({ sessionId, children }: { sessionId: string; children: ReactNode }) {
  const { row, loaded, preview, outline, loading } = useSessionData(sessionId);
  const value = useMemo(() => ({ row, loaded, preview, outline }), [row, loaded, preview, outline]);
  return (
    <CurrentSessionContext.Provider value={value}>
      <LoadProgressContext.Provider value={loading}>{children}</LoadProgressContext.Provider>
    </CurrentSessionContext.Provider>
  );
}

export function useCurrentSession(): CurrentSession {
  return useContext(CurrentSessionContext);
}

/** 0..1 while the first load runs (1: read, the models are being built), undefined otherwise. */
export function useLoadProgress(): number | undefined {
  return useContext(LoadProgressContext);
}
