/** The shapes a session load hands out: the loaded session, its outline before the bodies, and the load's options. */
import type { SessionEntry, SessionHeader } from "../../core/session/types.ts";
import type { SessionHandover } from "./session-handover.ts";

export interface LoadedSession {
  id: string;
  header: SessionHeader;
  /** Entries in file order. Replaced (never mutated) when new entries arrive. */
  entries: SessionEntry[];
  generation: number;
  lastSeq: number;
}

/** The whole session as outlines, with the entries that await their bodies. */
export interface OutlinedSession extends LoadedSession {
  /**
   * Entries without their message's body yet (emptied as the bodies come). A Set, not a WeakSet:
   * 80k weak entries made a full garbage collection's ephemeron marking a 60 ms pause.
   */
  awaiting: ReadonlySet<SessionEntry>;
}

export interface LoadOptions {
  onProgress?: (fraction: number) => void;
  /** The newest entries, before the rest; when it returns a promise, the rest waits for it (a paint). */
  onPreview?: (preview: LoadedSession) => void | Promise<void>;
  /**
   * Every entry, before the messages' bodies are read (a session stored with outlines,
   * services/session/outline-load.ts): for display only, like the preview; the bodies are read after the
   * returned promise (a paint) and given to the same entry objects. Never plan from it.
   */
  onOutline?: (outline: OutlinedSession) => void | Promise<void>;
  /** Called after each few parsed lines: `entries[from..to)` are new. Keep it cheap per entry. */
  onEntries?: (entries: readonly SessionEntry[], from: number, to: number) => void;
  signal?: AbortSignal;
  /**
   * Filled in when the entries are read: how many were read with their stored token counts
   * (`seeded`), and how many chunks have no stored counts that match (`unstored`: the counts to
   * store once the session is shown, services/session/store-token-counts.ts).
   */
  stats?: { seeded: number; unstored?: number };
  /** The tab's entries in memory (an import's, or kept from an earlier open): taken instead of reading, when they match. */
  handover?: SessionHandover;
}
