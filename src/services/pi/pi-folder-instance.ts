/** pi's sessions folder over the app database, for the UI (which never touches the database itself). */
import type { SessionEntry, SessionHeader } from "../../core/session/types.ts";
import { db } from "../../db/instance.ts";
import { forkToNewSession } from "../tree/fork-service.ts";
import { type FollowState, followFile, markFollowed, saveIntoFolder } from "./pi-folder.ts";

export const piFolder = {
  /** Starts following `handle` from byte `from` into the session (marked as followed first). */
  async follow(
    sessionId: string,
    path: string,
    handle: FileSystemFileHandle,
    from: number,
    onState: (s: FollowState) => void,
  ) {
    const marked = await markFollowed(db, sessionId, path);
    if (!marked.ok) return marked;
    return { ok: true as const, value: followFile(db, sessionId, path, handle, from, onState) };
  },
  /** Ends the mark: the session is the person's again (the follow itself is stopped by its owner). */
  unmark: (sessionId: string) => markFollowed(db, sessionId, undefined),
  /** A copy of the session's current path as a new session, to compact or edit while pi goes on. */
  copy: (source: { header: SessionHeader; entries: readonly SessionEntry[] }, leafId: string | null) =>
    forkToNewSession(db, source, leafId),
  save: (sessionId: string, dir: FileSystemDirectoryHandle) => saveIntoFolder(db, sessionId, dir),
};
