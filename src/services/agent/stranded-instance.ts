/**
 * The tab's ways out of stranded states over the app database: waiting prompts
 * (services/compaction/prompt-waits.ts) and the overflow dead end (services/compaction/overflow-ways-out.ts),
 * and the live reads the UI shows them from. Tests build their own with the factories.
 */
import { db } from "../../db/instance.ts";
import { agentWorkStored } from "../../db/reply-checkpoints.ts";
import { live } from "../common/live.ts";
import { createOverflowWaysOut } from "../compaction/overflow-ways-out.ts";
import { createPromptWaits } from "../compaction/prompt-waits.ts";

export const promptWaits = createPromptWaits(db);
export const overflowWaysOut = createOverflowWaysOut(db);

/** The session's stored waiting prompt (undefined: none). */
export const watchWaitingPrompt = (sessionId: string) => live(() => promptWaits.read(sessionId));

/**
 * Whether the session has agent work in storage (a reply cut off by a reload, a run in another tab).
 * A failed read is false.
 */
export const watchStoredAgentWork = (sessionId: string) =>
  live(() => agentWorkStored(db, sessionId).catch(() => false));
