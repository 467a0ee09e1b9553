/**
 * The agent loop, pure logic with everything injected (model stream, tool executor, persistence
 * callback, id generator, clock):
 *
 *   prompt -> stream a reply -> run its tool calls -> tool results -> next reply ... until the
 *   model stops (stopReason other than toolUse), the run is aborted, a reply fails, or the turn
 *   guard is reached.
 *
 * Every message is handed to `append` as soon as it is complete (the user prompt, each assistant
 * reply, each tool result), as a `message` entry chained to the previous one. Each request is
 * built from the session context of the path so far (buildSessionContext, then
 * contextRequestMessages), so compactions and summaries on the path apply and the request is what pi
 * 1.6 would send (failed and stopped replies left out, back-to-back user messages joined).
 *
 * Abort: the partial reply is kept with stopReason "aborted" and its calls get no results (pi 1.6
 * writes none: such a reply is not sent again, request-messages.ts); calls of a complete reply
 * not yet started when the run stops get error results saying they were aborted. A reply cut at the output limit ("length") does not run
 * its (possibly incomplete) tool calls: they get error results too, so every call is answered.
 */
import { buildSessionContext } from "../session/context.ts";
import { systemMessageText } from "../session/system-prompt.ts";
import type {
  AssistantMessage,
  MessageEntry,
  SessionEntry,
  ToolCall,
  ToolResultMessage,
  UserContentBlock,
  UserMessage,
} from "../session/types.ts";
import { contextRequestMessages } from "./request-messages.ts";
import type { ModelStreamEvent, ModelStreamFn, ToolOutput, ToolSpec } from "./types.ts";

export const DEFAULT_MAX_TURNS = 50;

export type AgentEvent =
  | { type: "model"; event: ModelStreamEvent }
  | { type: "appended"; entries: SessionEntry[] }
  | { type: "tool_start"; call: ToolCall }
  | { type: "tool_end"; call: ToolCall; result: ToolResultMessage }
  | { type: "turn_start"; turn: number };

export interface AgentLoopDeps {
  streamModel: ModelStreamFn;
  executeTool: (call: ToolCall, signal: AbortSignal) => Promise<ToolOutput>;
  /** Persists entries; called once per completed message, in order, and awaited. */
  append: (entries: SessionEntry[]) => void | Promise<void>;
  newId: () => string;
  /** ms since epoch */
  now: () => number;
  onEvent?: (event: AgentEvent) => void;
  /**
   * Between turns (after tool results, before the next model request): may return a new path to
   * continue from, e.g. after a compaction (pi 1.6 checks the threshold there too).
   */
  beforeTurn?: (path: readonly SessionEntry[]) => Promise<readonly SessionEntry[] | undefined>;
}

export interface AgentRunInput {
  /** The current path, root first. Not mutated. */
  path: readonly SessionEntry[];
  /** Parent of the first new entry; defaults to the last entry of the path (null when empty). */
  leafId?: string | null;
  /** The person's message. Omit to continue from the path as is (e.g. retry after a compaction). */
  prompt?: string | UserContentBlock[];
  systemPrompt: string;
  tools: readonly ToolSpec[];
  signal: AbortSignal;
  maxTurns?: number;
}

export type AgentStopReason = "stop" | "length" | "error" | "aborted" | "max-turns";

export interface AgentRunResult {
  stopReason: AgentStopReason;
  /** The path including every new entry. */
  path: SessionEntry[];
  newEntries: SessionEntry[];
  /** The last assistant reply (for overflow detection, usage, ...). */
  lastAssistant?: AssistantMessage;
  errorMessage?: string;
  turns: number;
  /** The max_tokens of the last request, when the caller's model call set one (agent-runner). */
  requestedMaxTokens?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

const toolCallsOf = (m: AssistantMessage): ToolCall[] =>
  m.content.filter((b): b is ToolCall => b.type === "toolCall");

export async function runAgent(input: AgentRunInput, deps: AgentLoopDeps): Promise<AgentRunResult> {
  const path = [...input.path];
  const newEntries: SessionEntry[] = [];
  let parentId: string | null =
    input.leafId !== undefined ? input.leafId : (path[path.length - 1]?.id ?? null);
  const maxTurns = input.maxTurns ?? DEFAULT_MAX_TURNS;
  const emit = deps.onEvent ?? (() => {});
  const { signal } = input;
  let turns = 0;
  let lastAssistant: AssistantMessage | undefined;

  const result = (stopReason: AgentStopReason, errorMessage?: string): AgentRunResult => ({
    stopReason,
    path,
    newEntries,
    turns,
    ...(lastAssistant ? { lastAssistant } : {}),
    ...(errorMessage !== undefined ? { errorMessage } : {}),
  });

  /** Appends one message entry; a persistence failure ends the run (returned as a value). */
  async function persist(message: MessageEntry["message"]): Promise<string | null> {
    const entry: MessageEntry = {
      type: "message",
      id: deps.newId(),
      parentId,
      timestamp: iso(deps.now()),
      message,
    };
    try {
      await deps.append([entry]);
    } catch (err) {
      return `Could not save the session: ${String((err as Error)?.message ?? err)}`;
    }
    path.push(entry);
    newEntries.push(entry);
    parentId = entry.id;
    emit({ type: "appended", entries: [entry] });
    return null;
  }

  function toolResult(call: ToolCall, output: ToolOutput): ToolResultMessage {
    const message: ToolResultMessage = {
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      content: output.content,
      isError: output.isError,
      timestamp: deps.now(),
    };
    if (output.details !== undefined) message.details = output.details;
    return message;
  }

  async function answerUnrun(calls: readonly ToolCall[], why: string): Promise<string | null> {
    for (const call of calls) {
      const message = toolResult(call, { content: [{ type: "text", text: why }], isError: true });
      const failed = await persist(message);
      if (failed) return failed;
      emit({ type: "tool_end", call, result: message });
    }
    return null;
  }

  if (input.prompt !== undefined) {
    const user: UserMessage = { role: "user", content: input.prompt, timestamp: deps.now() };
    const failed = await persist(user);
    if (failed) return result("error", failed);
  }

  for (;;) {
    if (turns > 0 && deps.beforeTurn) {
      const next = await deps.beforeTurn(path);
      if (next) {
        path.length = 0;
        for (const e of next) path.push(e);
        parentId = path[path.length - 1]?.id ?? null;
      }
      if (signal.aborted) return result("aborted");
    }
    if (turns >= maxTurns) {
      return result(
        "max-turns",
        `Stopped after ${maxTurns} model turns (the turn limit). Send a message to continue.`,
      );
    }
    turns++;
    emit({ type: "turn_start", turn: turns });
    const context = buildSessionContext(path);
    const reply = await deps.streamModel({
      // The session's own prompt (its system messages replayed) wins over the configured one.
      systemPrompt: systemMessageText(context.systemMessage) || input.systemPrompt,
      messages: contextRequestMessages(context.messages),
      tools: [...input.tools],
      thinkingLevel: context.thinkingLevel,
      signal,
      onEvent: (event) => emit({ type: "model", event }),
    });
    lastAssistant = reply;
    const failed = await persist(reply);
    if (failed) return result("error", failed);
    const calls = toolCallsOf(reply);

    if (reply.stopReason === "aborted") return result("aborted");
    if (signal.aborted && reply.stopReason !== "error") {
      const f = await answerUnrun(calls, "Tool call aborted: the run was stopped before it started.");
      return result("aborted", f ?? undefined);
    }
    if (reply.stopReason === "error")
      return result("error", reply.errorMessage ?? "The model request failed.");
    if (reply.stopReason === "length") {
      const f = await answerUnrun(calls, "Tool call not run: the reply was cut off at the output limit.");
      return result("length", f ?? undefined);
    }
    if (reply.stopReason !== "toolUse" || calls.length === 0) return result("stop");

    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      if (signal.aborted) {
        const f = await answerUnrun(
          calls.slice(i),
          "Tool call aborted: the run was stopped before it started.",
        );
        return result("aborted", f ?? undefined);
      }
      emit({ type: "tool_start", call });
      let output: ToolOutput;
      try {
        output = await deps.executeTool(call, signal);
      } catch (err) {
        output = {
          content: [{ type: "text", text: `Tool ${call.name} failed: ${String(err)}` }],
          isError: true,
        };
      }
      const message = toolResult(call, output);
      const f = await persist(message);
      if (f) return result("error", f);
      emit({ type: "tool_end", call, result: message });
    }
    if (signal.aborted) return result("aborted");
  }
}
