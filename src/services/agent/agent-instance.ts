/**
 * The tab's agent service and workspace, over the app database. UI code gets them through
 * ui/agent/agent-handle.ts (loaded on demand); tests build their own with createAgentService /
 * createAgentWorkspaceService.
 */
import { db } from "../../db/instance.ts";
import { createAgentService } from "./agent-session.ts";
import { createAgentWorkspaceService } from "./agent-workspace.ts";

export const agentWorkspace = createAgentWorkspaceService(db);
export const agentService = createAgentService({ db, workspace: agentWorkspace });

/** For the compaction UI: `registerAgentHooks({ beforePrompt, afterRun })`. */
export const registerAgentHooks = agentService.registerHooks;
