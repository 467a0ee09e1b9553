/**
 * Types of the agent loop and of the tools it runs. Pure: no I/O here.
 */
import type { AgentMessage, AssistantMessage, ToolCall, ToolResultContentBlock } from "../session/types.ts";

/** What a tool returns; becomes a `toolResult` message. */
export interface ToolOutput {
  content: ToolResultContentBlock[];
  isError: boolean;
  details?: unknown;
}

/** A tool offered to the model (pi's names and argument names). */
export interface AgentTool {
  name: string;
  /** Short human label for the UI. */
  label: string;
  description: string;
  /** JSON schema of the arguments object. */
  parameters: Record<string, unknown>;
  /** Never throws for expected failures: they come back with isError. */
  execute(args: Record<string, unknown>, context: { signal?: AbortSignal }): Promise<ToolOutput>;
}

/** The JSON-schema definition sent to the model. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Events of a live stream, forwarded from the model adapter (kept structural so core needs no llm import). */
export type ModelStreamEvent =
  | { type: "start"; message: AssistantMessage }
  | { type: "text_delta"; contentIndex: number; delta: string; message: AssistantMessage }
  | { type: "thinking_delta"; contentIndex: number; delta: string; message: AssistantMessage }
  | { type: "toolcall_start"; contentIndex: number; id: string; name: string; message: AssistantMessage }
  | { type: "toolcall_delta"; contentIndex: number; delta: string; message: AssistantMessage }
  | { type: "retry"; attempt: number; delayMs: number; reason: string }
  | { type: "done"; message: AssistantMessage };

export interface ModelRequest {
  systemPrompt: string;
  /** Model-facing messages (toLlmMessages already applied). */
  messages: AgentMessage[];
  tools: ToolSpec[];
  /** The session's thinking level ("off" when none). */
  thinkingLevel: string;
  signal: AbortSignal;
  onEvent: (event: ModelStreamEvent) => void;
}

/** One model call; never throws (errors come back as stopReason "error"/"aborted"). */
export type ModelStreamFn = (request: ModelRequest) => Promise<AssistantMessage>;

export type { ToolCall };
