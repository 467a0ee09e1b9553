/**
 * The tab's ways out of stranded states over the app database: waiting prompts
 * (services/compaction/prompt-waits.ts) and the overflow dead end (services/compaction/overflow-ways-out.ts). Tests
 * build their own with the factories.
 */
import { db } from "../../db/instance.ts";
import { createOverflowWaysOut } from "../compaction/overflow-ways-out.ts";
import { createPromptWaits } from "../compaction/prompt-waits.ts";

export const promptWaits = createPromptWaits(db);
export const overflowWaysOut = createOverflowWaysOut(db);
