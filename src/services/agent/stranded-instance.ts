/**
 * Whether a session has agent work in storage, over the app database, for the UI (the waiting
 * prompts and the overflow ways out are the tab's services: services/app/app-services.ts).
 */
import { db } from "../../db/instance.ts";
import { agentWorkStored } from "../../db/reply-checkpoints.ts";
import { live } from "../common/live.ts";

/**
 * Whether the session has agent work in storage (a reply cut off by a reload, a run in another tab).
 * A failed read is false.
 */
export const watchStoredAgentWork = (sessionId: string) =>
  live(() => agentWorkStored(db, sessionId).catch(() => false));
