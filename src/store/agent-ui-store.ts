/** Transient UI state of the agent UI (nothing here is saved): the workspace panel and its file. */
import { create } from "zustand";

export interface AgentUiState {
  filesOpen: boolean;
  /** The file shown in the workspace panel (workspace-relative path). */
  openFile: string | null;
  setFilesOpen(open: boolean): void;
  setOpenFile(path: string | null): void;
}

export const useAgentUiStore = create<AgentUiState>()((set) => ({
  filesOpen: false,
  openFile: null,
  setFilesOpen: (open) => set({ filesOpen: open }),
  setOpenFile: (path) => set({ openFile: path }),
}));
