/** The tab's waiting prompts over the app database (services/prompt-waits.ts); tests build their own. */
import { db } from "../db/instance.ts";
import { createPromptWaits } from "./prompt-waits.ts";

export const promptWaits = createPromptWaits(db);
