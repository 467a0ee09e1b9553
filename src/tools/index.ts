/**
 * Workspace tools for the agent, with pi's names and argument names:
 * read {path, offset?, limit?}, write {path, content}, edit {path, oldText, newText},
 * ls {path?, limit?}, find {pattern, path?, limit?},
 * grep {pattern, path?, glob?, ignoreCase?, literal?, context?, limit?}.
 *
 * `createWorkspaceTools(ws)` gives the AgentTool objects; `toolSpecs(tools)` the JSON-schema
 * definitions for the model; `executeToolCall(tools, call, signal)` runs one call and never throws.
 */
import type { AgentTool, ToolOutput, ToolSpec } from "../core/agent/types.ts";
import type { ToolCall } from "../core/session/types.ts";
import { editTool, readTool, writeTool } from "./file-tools.ts";
import { errorResult } from "./result.ts";
import { findTool, grepTool, lsTool } from "./search-tools.ts";
import type { Workspace } from "./workspace.ts";

export { globMatcher, globToRegExp } from "./glob.ts";
export {
  createHandleWorkspace,
  hasWritableStreams,
  isFolderPickerSupported,
  openOpfsWorkspace,
  pickFolderWorkspace,
  workspaceFromFolderHandle,
} from "./handle-workspace.ts";
export { createMemoryWorkspace, type MemoryWorkspace } from "./memory-workspace.ts";
export { createSyncWriter, type SyncWriter, type WorkerLike } from "./opfs-sync-writer.ts";
export { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from "./truncate.ts";
export * from "./workspace.ts";

export const TOOL_NAMES = ["read", "write", "edit", "ls", "find", "grep"] as const;

export function createWorkspaceTools(ws: Workspace): AgentTool[] {
  return [readTool(ws), writeTool(ws), editTool(ws), lsTool(ws), findTool(ws), grepTool(ws)];
}

/** Only the tools whose names are active (e.g. a session's active_tools_change). */
export function activeTools(tools: readonly AgentTool[], names: readonly string[] | undefined): AgentTool[] {
  return names ? tools.filter((t) => names.includes(t.name)) : [...tools];
}

export function toolSpecs(tools: readonly AgentTool[]): ToolSpec[] {
  return tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
}

/** Runs one tool call; unknown tools and unexpected exceptions become error results. */
export async function executeToolCall(
  tools: readonly AgentTool[],
  call: ToolCall,
  signal?: AbortSignal,
): Promise<ToolOutput> {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) {
    return errorResult(
      `Unknown tool "${call.name}". Available tools: ${tools.map((t) => t.name).join(", ")}.`,
    );
  }
  try {
    return await tool.execute(call.arguments ?? {}, { signal });
  } catch (err) {
    return errorResult(`Tool ${call.name} failed: ${String((err as Error)?.message ?? err)}`);
  }
}
