/** The import journal on the app's database and this browser's Web Locks, for the UI. */
import { db } from "../../db/instance.ts";
import { defaultLockQuery, defaultLocks } from "../agent/session-run.ts";
import { newSessionId } from "../common/ids.ts";
import { beginImport, type ImportMark, type LeftoverImport, takeLeftoverImports } from "./import-journal.ts";

export type { ImportMark, LeftoverImport };

export const importJournal = {
  begin: (file: { name: string; size: number }): ImportMark =>
    beginImport(db, file, { locks: defaultLocks(), now: Date.now() }),
  takeLeftovers: (): Promise<LeftoverImport[]> => takeLeftoverImports(db, defaultLockQuery()),
  /** The id a save will write: the file's own, or a fresh one for a copy. */
  sessionIdFor: (copy: boolean, headerId: string): string => (copy ? newSessionId() : headerId),
};
