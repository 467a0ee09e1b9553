/**
 * The open session, shared with every component under the session view (slots included):
 * `const { row, loaded } = useCurrentSession();` — `loaded.entries` are all entries in file
 * order; the tree data and path: `treeData` / `sessionPath` (src/ui/tree/tree-model.ts).
 */
import { createContext, type ReactNode, useContext } from "react";
import { type SessionData, useSessionData } from "./use-session-data.ts";

const CurrentSessionContext = createContext<SessionData>({
  row: undefined,
  loaded: undefined,
  preview: undefined,
  loading: undefined,
});

export function CurrentSessionProvider({ sessionId, children }: { sessionId: string; children: ReactNode }) {
  const data = useSessionData(sessionId);
  return <CurrentSessionContext.Provider value={data}>{children}</CurrentSessionContext.Provider>;
}

export function useCurrentSession(): SessionData {
  return useContext(CurrentSessionContext);
}
