/**
 * The tab's ways out of stranded states over the app database: waiting prompts
 * (services/prompt-waits.ts) and the overflow dead end (services/overflow-ways-out.ts). Tests
 * build their own with the factories.
 */
import { db } from "../db/instance.ts";
import { createOverflowWaysOut } from "./overflow-ways-out.ts";
import { createPromptWaits } from "./prompt-waits.ts";

export const promptWaits = createPromptWaits(db);
export const overflowWaysOut = createOverflowWaysOut(db);
