/**
 * An overflow that compaction cannot fix (a dead end): the person's last message did not fit the
 * model's window, and there is nothing older to summarize (or a compaction was made and it still
 * did not fit). Found from the path alone, so it is shown again after a reload; the ways out
 * write only what the person chose: a move of the leaf to before the message (drop it, or edit
 * and resend it shorter; the message stays in the file on a side branch), or masked tool outputs.
 */
import { planMasking } from "../../core/compaction/masking.ts";
import { isOverflowErrorReply } from "../../core/compaction/overflow.ts";
import { planCompaction } from "../../core/compaction/plan.ts";
import type { AgentMessage, SessionEntry } from "../../core/session/types.ts";
import type { CutpointDb } from "../../db/schema.ts";
import { loadProviderSettings, modelLimits } from "../agent/agent-settings.ts";
import { moveLeaf } from "../tree/branch-service.ts";
import { fitSettings, sessionStartTokens } from "./compaction-fit.ts";
import { loadCompactionSettings } from "./compaction-settings.ts";
import { maskToolOutputs } from "./masking-service.ts";

export interface OverflowDeadEnd {
  /** The user message the model could not take. */
  userEntryId: string;
  /** Where the leaf goes to drop it (its parent). */
  parentId: string | null;
  text: string;
  /** ≈ tokens of that message alone (4 characters a token, pi's estimate). */
  messageTokens: number;
  why: "nothing-to-summarize" | "still-too-long";
  /** Tool outputs masking could shrink (0: masking cannot help). */
  maskable: number;
}

const messageOf = (e: SessionEntry): AgentMessage | undefined =>
  e.type === "message" ? (e as { message: AgentMessage }).message : undefined;

function textOf(m: AgentMessage): string {
  const c = (m as { content?: unknown }).content;
  if (typeof c === "string") return c;
  if (!Array.isArray(c)) return "";
  return c
    .map((b) => ((b as { type?: string }).type === "text" ? ((b as { text?: string }).text ?? "") : ""))
    .join("");
}

/**
 * The dead end at the end of `path`, if there is one: its last message is a provider's overflow
 * error answering the person's last message, and compaction cannot make room.
 */
export function findOverflowDeadEnd(
  path: readonly SessionEntry[],
  settings: { reserveTokens: number; keepRecentTokens: number },
): OverflowDeadEnd | undefined {
  let i = path.length - 1;
  let overflowed = false;
  let compacted = false;
  for (; i >= 0; i--) {
    const e = path[i]!;
    if (e.type === "compaction") compacted = true;
    const m = messageOf(e);
    if (!m) continue;
    if (m.role === "user") break;
    if (!overflowed) {
      if (!isOverflowErrorReply(m)) return undefined;
      overflowed = true;
    }
  }
  if (!overflowed || i < 0) return undefined;
  const user = path[i]!;
  const planned = planCompaction(path, settings);
  const nothing = !planned.ok && planned.code === "nothing-to-summarize";
  if (!nothing && !compacted) return undefined;
  const text = textOf(messageOf(user)!);
  const maskable = planMasking(path, { newId: (n) => `probe-${n}`, timestamp: "" }).targets.length;
  return {
    userEntryId: user.id,
    parentId: user.parentId,
    text,
    messageTokens: Math.ceil(text.length / 4),
    why: nothing ? "nothing-to-summarize" : "still-too-long",
    maskable,
  };
}

export function createOverflowWaysOut(db: CutpointDb) {
  return {
    /** The dead end at the end of `path` with the session's compaction settings (undefined: none). */
    async find(sessionId: string, path: readonly SessionEntry[]): Promise<OverflowDeadEnd | undefined> {
      const [settings, provider] = await Promise.all([
        loadCompactionSettings(db, sessionId),
        loadProviderSettings(db),
      ]);
      // The settings as they apply to this model (unset ones follow its window).
      const fitted = fitSettings(settings, modelLimits(provider, provider.model), sessionStartTokens(path));
      return findOverflowDeadEnd(path, fitted.settings);
    },
    /**
     * Drop it (or take it back to edit): the leaf moves to before the message, which stays in the
     * file on a side branch. Refused when the session moved on meanwhile (another tab).
     */
    async leave(
      sessionId: string,
      path: readonly SessionEntry[],
      end: OverflowDeadEnd,
    ): Promise<{ ok: true } | { ok: false; message: string }> {
      const r = await moveLeaf(db, sessionId, end.parentId, {
        expectedLeafId: path[path.length - 1]?.id ?? null,
        taken: new Set(path.map((e) => e.id)),
      });
      return r.ok ? { ok: true } : { ok: false, message: `Nothing was changed: ${r.error.message}` };
    },
    /** Masks every tool output in the context (pi 1.6 context_edit entries; Undo in the review). */
    async mask(
      sessionId: string,
      path: readonly SessionEntry[],
    ): Promise<{ ok: true; count: number } | { ok: false; message: string }> {
      const r = await maskToolOutputs(db, { sessionId, path });
      return r.ok ? { ok: true, count: r.plan.targets.length } : { ok: false, message: r.reason };
    },
  };
}

export type OverflowWaysOut = ReturnType<typeof createOverflowWaysOut>;
