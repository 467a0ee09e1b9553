/**
 * The tab's agent service and workspace, over the app database. UI code imports these; tests build
 * their own with createAgentService / createAgentWorkspaceService. Also tells src/db how to see
 * whether a session's run lock is held, so that a run mark left by a closed tab is cleared.
 */
import { setRunLiveness } from "../db/append-at-leaf.ts";
import { db } from "../db/instance.ts";
import { createAgentService } from "./agent-session.ts";
import { createAgentWorkspaceService } from "./agent-workspace.ts";
import { defaultLockQuery, lockHeld } from "./session-run.ts";

export const agentWorkspace = createAgentWorkspaceService(db);
export const agentService = createAgentService({ db, workspace: agentWorkspace });

const query = defaultLockQuery();
setRunLiveness(query ? (sessionId) => lockHeld(query, sessionId) : null);

/** For the compaction UI: `registerAgentHooks({ beforePrompt, afterRun })`. */
export const registerAgentHooks = agentService.registerHooks;
