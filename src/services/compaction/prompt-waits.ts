/**
 * Prompts that wait for a session's compaction review, kept durable: stored (a settings row per
 * session, never the session file) the moment a send has to wait, removed when the prompt goes
 * out or is cancelled. A run of this tab that holds its prompt says so (`held`); a prompt that no
 * run holds (the page was reloaded or closed meanwhile) is sent once when the review is decided,
 * by whoever claims it first (a transaction: one claim wins, in any tab).
 */
import type { SessionEntry } from "../../core/session/types.ts";
import type { CutpointDb } from "../../db/schema.ts";
import { deleteSetting, getSetting, setSetting } from "../../db/settings-repo.ts";

export interface WaitingPrompt {
  sessionId: string;
  text: string;
  /** ms since epoch, when it was sent. */
  savedAt: number;
}

export const waitingPromptKey = (sessionId: string) => `agent.waitingPrompt.${sessionId}`;

function readRow(value: unknown, sessionId: string): WaitingPrompt | undefined {
  if (!value || typeof value !== "object") return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.text !== "string" || v.text === "" || typeof v.savedAt !== "number") return undefined;
  return { sessionId, text: v.text, savedAt: v.savedAt };
}

/** A user message on `path`, sent at or after the prompt waited, with its text: it went out already. */
export function alreadySent(prompt: WaitingPrompt, path: readonly SessionEntry[]): boolean {
  for (let i = path.length - 1; i >= 0; i--) {
    const e = path[i]!;
    if (e.type !== "message") continue;
    const m = (e as { message?: { role?: string; content?: unknown } }).message;
    if (m?.role !== "user") continue;
    if (Date.parse(e.timestamp) < prompt.savedAt - 1000) return false;
    const c = m.content;
    const text =
      typeof c === "string"
        ? c
        : Array.isArray(c)
          ? c.map((b) => (b as { text?: string }).text ?? "").join("")
          : "";
    if (text.trim() === prompt.text.trim()) return true;
  }
  return false;
}

export function createPromptWaits(db: CutpointDb, now: () => number = Date.now) {
  /** Sessions whose waiting prompt a run of this tab holds (it goes out with that run). */
  const held = new Set<string>();
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const l of listeners) l();
  };

  return {
    /** The waiting prompt of a session (undefined when none). */
    async read(sessionId: string): Promise<WaitingPrompt | undefined> {
      return readRow(await getSetting(db, waitingPromptKey(sessionId)), sessionId);
    },
    /** True while a run of this tab holds the session's waiting prompt. */
    isHeld(sessionId: string): boolean {
      return held.has(sessionId);
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** A run starts waiting with `text`: stored at once (a failed write only loses durability). */
    async hold(sessionId: string, text: string): Promise<void> {
      held.add(sessionId);
      changed();
      await setSetting(db, waitingPromptKey(sessionId), { text, savedAt: now() });
    },
    /** The holding run goes on (its prompt goes out now) or gave up (its text went back): the row goes. */
    async letGo(sessionId: string): Promise<void> {
      held.delete(sessionId);
      changed();
      await deleteSetting(db, waitingPromptKey(sessionId));
    },
    /**
     * Takes a waiting prompt that no run of this tab holds, to send it (or to edit it): one claim
     * wins; undefined when there is none, or it is held, or `path` shows it went out already.
     */
    async claim(sessionId: string, path?: readonly SessionEntry[]): Promise<WaitingPrompt | undefined> {
      if (held.has(sessionId)) return undefined;
      const key = waitingPromptKey(sessionId);
      try {
        const row = await db.transaction("rw", db.settings, async () => {
          const found = readRow((await db.settings.get(key))?.value, sessionId);
          if (found) await db.settings.delete(key);
          return found;
        });
        if (!row || (path && alreadySent(row, path))) return undefined;
        return row;
      } catch {
        return undefined;
      }
    },
  };
}

export type PromptWaits = ReturnType<typeof createPromptWaits>;
