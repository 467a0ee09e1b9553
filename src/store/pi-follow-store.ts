/** The pi sessions folder open in this page and the files followed from it, by session. */
import { create } from "zustand";
import type { PiFolderOpened } from "../services/pi/pi-agent-folder.ts";
import type { FollowState } from "../services/pi/pi-folder.ts";

interface Followed {
  state: FollowState;
  stop: () => void;
  /** The project folder the file is in (where a copy can be saved). */
  dir: FileSystemDirectoryHandle;
}

interface PiFollowState {
  listing: PiFolderOpened | undefined;
  follows: Record<string, Followed>;
  setListing(listing: PiFolderOpened | undefined): void;
  started(sessionId: string, followed: Followed): void;
  update(sessionId: string, state: FollowState): void;
  /** Stops and forgets the follow of a session. */
  stop(sessionId: string): void;
}

export const usePiFollowStore = create<PiFollowState>((set, get) => ({
  listing: undefined,
  follows: {},
  setListing: (listing) => set({ listing }),
  started: (sessionId, followed) => {
    get().follows[sessionId]?.stop();
    set((s) => ({ follows: { ...s.follows, [sessionId]: followed } }));
  },
  update: (sessionId, state) =>
    set((s) => {
      const f = s.follows[sessionId];
      return f ? { follows: { ...s.follows, [sessionId]: { ...f, state } } } : {};
    }),
  stop: (sessionId) => {
    get().follows[sessionId]?.stop();
    set((s) => {
      const { [sessionId]: _gone, ...rest } = s.follows;
      return { follows: rest };
    });
  },
}));
