/**
 * The agent runner: binds the pure agent loop (core/agent) to the model adapter (llm), the
 * workspace tools (tools) and session persistence (the storage layer provides it).
 *
 * UI contract (no React here): `getState()` + `subscribe(listener)` (fits useSyncExternalStore),
 * `run(request)` to send a prompt (or continue), `abort()` to stop. The state says what is going on
 * (idle / streaming / retrying with a countdown target / running a tool / error / running in
 * another tab) and carries the live streaming message.
 *
 * While a run is active the tab holds the Web Lock "cutpoint-session-<id>"; when another tab holds
 * it, `run` answers { ok:false, reason:"running-elsewhere" } without touching the session. (The
 * session controller passes `locks: null` and holds the lock itself for a whole send.) The reply
 * streaming is checkpointed as it arrives (`persistence.checkpoint`).
 */
import { type AgentRunResult, runAgent } from "../../core/agent/loop.ts";
import { settingsChanges } from "../../core/agent/settings.ts";
import type { AgentTool, ModelStreamFn } from "../../core/agent/types.ts";
import { requestInputTokens, requestMaxTokens } from "../../core/compaction/model-fit.ts";
import type { AssistantMessage, SessionEntry, UserContentBlock } from "../../core/session/types.ts";
import { modelInfo } from "../../llm/providers.ts";
import { type EndpointConfig, streamAssistant } from "../../llm/stream-assistant.ts";
import { activeTools, executeToolCall, toolSpecs } from "../../tools/index.ts";
import { newEntryId } from "../common/ids.ts";
import { IDLE_RUNNER, type RunnerState } from "./idle-runner.ts";
import { defaultLocks, type LockManagerLike, lockName, RUNNING_ELSEWHERE } from "./session-run.ts";

/**
 * What the runner needs from storage. `appendEntries` resolves to nothing or to a Result
 * (`{ok:true,...}` / `{ok:false, error: {message} | string}`, like src/db's repositories); a failed
 * Result or a rejection ends the run with a "Could not save the session" error.
 */
export interface SessionPersistence {
  appendEntries(sessionId: string, entries: SessionEntry[]): Promise<unknown>;
  /**
   * Saves the reply streaming now (chained to `parentId`), throttled (`checkpointMs`), so that a
   * reload loses at most the last moments of it. Awaited before the next append.
   */
  checkpoint?(sessionId: string, parentId: string | null, message: AssistantMessage): Promise<unknown>;
}

function appendFailure(r: unknown): string | null {
  if (!r || typeof r !== "object" || (r as { ok?: unknown }).ok !== false) return null;
  const error = (r as { error?: unknown }).error;
  if (typeof error === "string") return error;
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : "storage failure";
}

export type { LockManagerLike } from "./session-run.ts";

export interface RunRequest {
  sessionId: string;
  /** Current path, root first. */
  path: readonly SessionEntry[];
  /** Parent of the first new entry (defaults to the last entry of the path). */
  leafId?: string | null;
  /** Omit to continue from the path (e.g. retry after a compaction). */
  prompt?: string | UserContentBlock[];
  endpoint: EndpointConfig & {
    model: string;
    /** The output budget; with `contextWindow` each request asks for what fits (model-fit.ts). */
    maxTokens?: number;
    /** The window in use: max_tokens never exceeds the room the request leaves in it. */
    contextWindow?: number;
    /** Whether the model takes reasoning_effort; defaults to the model table. */
    reasoning?: boolean;
  };
  systemPrompt: string;
  /**
   * The thinking level wanted for this run. When it, or the endpoint's model, differs from the
   * path, thinking_level_change / model_change entries are written before the prompt.
   */
  thinkingLevel?: string;
  /** Tool names to offer (the session's active tools); all when omitted. */
  activeToolNames?: readonly string[];
  maxTurns?: number;
  /** Between the turns of the run: may return a new path (e.g. compacted) to continue from. */
  beforeTurn?: (path: readonly SessionEntry[]) => Promise<readonly SessionEntry[] | undefined>;
}

export type RunOutcome =
  | { ok: true; result: AgentRunResult }
  | { ok: false; reason: "busy" | "running-elsewhere"; message: string };

export interface AgentRunnerDeps {
  persistence: SessionPersistence;
  /** The tools over the current workspace (a function so the workspace can change). */
  tools: () => readonly AgentTool[];
  /** Defaults to navigator.locks; null disables locking. */
  locks?: LockManagerLike | null;
  /** Injected for tests; defaults to the real adapter. */
  streamFn?: typeof streamAssistant;
  now?: () => number;
  /** Minimum ms between live-message notifications while streaming (default 50). */
  streamThrottleMs?: number;
  /** Minimum ms between reply checkpoints while streaming (default 250). */
  checkpointMs?: number;
  newId?: (taken: ReadonlySet<string>) => string;
}

export interface AgentRunner {
  getState(): RunnerState;
  subscribe(listener: () => void): () => void;
  run(request: RunRequest): Promise<RunOutcome>;
  abort(): void;
}

/** A storage failure before the loop started (reported as a run error, not a bug). */
class SaveError extends Error {}

function snapshot(m: AssistantMessage): AssistantMessage {
  return { ...m, content: m.content.map((b) => ({ ...b })) };
}

export function createAgentRunner(deps: AgentRunnerDeps): AgentRunner {
  const now = deps.now ?? Date.now;
  const stream = deps.streamFn ?? streamAssistant;
  const locks = deps.locks === undefined ? defaultLocks() : deps.locks;
  const listeners = new Set<() => void>();
  let state: RunnerState = IDLE_RUNNER;
  let controller: AbortController | null = null;

  // Live message updates are throttled (leading + trailing edge): a token-by-token stream, or a
  // long tool argument in thousands of fragments, notifies the UI at most every throttle window.
  const throttleMs = deps.streamThrottleMs ?? 50;
  let pendingMessage: AssistantMessage | null = null;
  let streamTimer: ReturnType<typeof setTimeout> | null = null;
  let lastStreamFlush = Number.NEGATIVE_INFINITY;
  const flushStreaming = () => {
    streamTimer = null;
    if (!pendingMessage) return;
    lastStreamFlush = now();
    const turn = state.status.kind === "streaming" ? state.status.turn : 1;
    set({ status: { kind: "streaming", turn }, streaming: snapshot(pendingMessage) });
    pendingMessage = null;
  };
  const queueStreaming = (message: AssistantMessage) => {
    pendingMessage = message;
    if (streamTimer) return;
    const wait = lastStreamFlush + throttleMs - now();
    if (wait <= 0) flushStreaming();
    else streamTimer = setTimeout(flushStreaming, wait);
  };
  const cancelStreaming = () => {
    if (streamTimer) clearTimeout(streamTimer);
    streamTimer = null;
    pendingMessage = null;
  };

  // Checkpoints of the streaming reply: leading + trailing edge, one write at a time, in order.
  const checkpointMs = deps.checkpointMs ?? 250;
  let cpPending: { sessionId: string; parentId: string | null; message: AssistantMessage } | null = null;
  let cpTimer: ReturnType<typeof setTimeout> | null = null;
  let cpLast = Number.NEGATIVE_INFINITY;
  let cpChain: Promise<unknown> = Promise.resolve();
  const flushCheckpoint = () => {
    cpTimer = null;
    const p = cpPending;
    const save = deps.persistence.checkpoint;
    if (!p || !save) return;
    cpPending = null;
    cpLast = now();
    const message = snapshot(p.message);
    cpChain = cpChain.then(() => save(p.sessionId, p.parentId, message)).catch(() => undefined);
  };
  const queueCheckpoint = (sessionId: string, parentId: string | null, message: AssistantMessage) => {
    if (!deps.persistence.checkpoint) return;
    cpPending = { sessionId, parentId, message };
    if (cpTimer) return;
    const wait = cpLast + checkpointMs - now();
    if (wait <= 0) flushCheckpoint();
    else cpTimer = setTimeout(flushCheckpoint, wait);
  };
  const cancelCheckpoint = () => {
    if (cpTimer) clearTimeout(cpTimer);
    cpTimer = null;
    cpPending = null;
  };

  const set = (patch: Partial<RunnerState>) => {
    state = { ...state, ...patch };
    for (const l of listeners) l();
  };

  async function execute(req: RunRequest, ctrl: AbortController): Promise<AgentRunResult> {
    const tools = activeTools(deps.tools(), req.activeToolNames);
    const taken = new Set(req.path.map((e) => e.id));
    const info = modelInfo(req.endpoint.model);
    const reasoning = req.endpoint.reasoning ?? info.reasoning === true;
    const nextId = () => {
      const id = deps.newId ? deps.newId(taken) : newEntryId(taken);
      taken.add(id);
      return id;
    };

    // Record a model or thinking-level switch before the prompt, like pi does.
    let path = req.path;
    let leafId = req.leafId;
    /** The entry the reply streaming now chains to (the last one appended). */
    let streamParent: string | null = leafId !== undefined ? leafId : (path[path.length - 1]?.id ?? null);
    const persist = async (entries: SessionEntry[]) => {
      cancelCheckpoint();
      await cpChain;
      const r = await deps.persistence.appendEntries(req.sessionId, entries);
      if (appendFailure(r) === null) streamParent = entries[entries.length - 1]?.id ?? streamParent;
      return r;
    };
    if (req.prompt !== undefined) {
      const changes = settingsChanges(
        req.path,
        {
          provider: req.endpoint.provider,
          modelId: req.endpoint.model,
          ...(req.thinkingLevel !== undefined ? { thinkingLevel: req.thinkingLevel } : {}),
        },
        nextId,
        now(),
        req.leafId,
      );
      if (changes.length > 0) {
        const failure = appendFailure(await persist(changes));
        if (failure !== null) throw new SaveError(`Could not save the session: ${failure}`);
        path = [...req.path, ...changes];
        leafId = changes[changes.length - 1]!.id;
      }
    }

    /** The max_tokens of the last request (a "length" stop below it means the input was cut). */
    let requestedMaxTokens: number | undefined;
    const maxTokensFor = (r: Parameters<ModelStreamFn>[0]): number | undefined => {
      const budget = req.endpoint.maxTokens;
      if (budget === undefined || req.endpoint.contextWindow === undefined) return budget;
      const input = requestInputTokens(r.systemPrompt, r.tools, r.messages);
      return requestMaxTokens(req.endpoint.contextWindow, input, budget);
    };
    const streamModel: ModelStreamFn = async (r) => {
      const level = reasoning && r.thinkingLevel !== "off" ? r.thinkingLevel : undefined;
      const maxTokens = maxTokensFor(r);
      requestedMaxTokens = maxTokens;
      const reply = await stream({
        baseUrl: req.endpoint.baseUrl,
        apiKey: req.endpoint.apiKey,
        provider: req.endpoint.provider,
        model: req.endpoint.model,
        systemPrompt: r.systemPrompt,
        messages: r.messages,
        tools: r.tools,
        ...(maxTokens !== undefined ? { maxTokens } : {}),
        ...(level ? { reasoningEffort: level } : {}),
        signal: r.signal,
        onEvent: r.onEvent,
      });
      // pi 1.6 records the thinking level asked for on each reply ("off" when none was).
      return { ...reply, thinkingLevel: level ?? "off" };
    };

    const result = await runAgent(
      {
        path,
        ...(leafId !== undefined ? { leafId } : {}),
        ...(req.prompt !== undefined ? { prompt: req.prompt } : {}),
        systemPrompt: req.systemPrompt,
        tools: toolSpecs(tools),
        signal: ctrl.signal,
        ...(req.maxTurns !== undefined ? { maxTurns: req.maxTurns } : {}),
      },
      {
        streamModel,
        executeTool: (call, signal) => executeToolCall(tools, call, signal),
        append: async (entries) => {
          const failure = appendFailure(await persist(entries));
          if (failure !== null) throw new Error(failure);
        },
        newId: nextId,
        now,
        ...(req.beforeTurn ? { beforeTurn: req.beforeTurn } : {}),
        onEvent: (e) => {
          if (e.type === "turn_start") {
            cancelStreaming();
            cancelCheckpoint();
            set({ status: { kind: "streaming", turn: e.turn }, streaming: null });
          } else if (e.type === "model") {
            const ev = e.event;
            if (ev.type === "retry") {
              cancelStreaming();
              cancelCheckpoint();
              set({
                status: {
                  kind: "retrying",
                  attempt: ev.attempt,
                  delayMs: ev.delayMs,
                  retryAt: now() + ev.delayMs,
                  reason: ev.reason,
                },
                streaming: null,
              });
            } else if (ev.type === "done") {
              // The complete reply once (for a last live render), then nothing until the next turn.
              cancelStreaming();
              cancelCheckpoint();
              set({ streaming: snapshot(ev.message) });
              set({ streaming: null });
            } else {
              queueStreaming(ev.message);
              queueCheckpoint(req.sessionId, streamParent, ev.message);
            }
          } else if (e.type === "tool_start") {
            set({ status: { kind: "running-tool", toolName: e.call.name, toolCallId: e.call.id } });
          }
        },
      },
    );
    return requestedMaxTokens !== undefined ? { ...result, requestedMaxTokens } : result;
  }

  async function runLocked(req: RunRequest, ctrl: AbortController): Promise<RunOutcome> {
    set({ sessionId: req.sessionId, status: { kind: "streaming", turn: 1 }, streaming: null });
    try {
      const result = await execute(req, ctrl);
      cancelStreaming();
      cancelCheckpoint();
      const failed = result.stopReason === "error";
      set({
        status: failed
          ? { kind: "error", message: result.errorMessage ?? "The run failed." }
          : { kind: "idle" },
        streaming: null,
        lastResult: result,
      });
      return { ok: true, result };
    } catch (err) {
      if (err instanceof SaveError) {
        const result: AgentRunResult = {
          stopReason: "error",
          path: [...req.path],
          newEntries: [],
          turns: 0,
          errorMessage: err.message,
        };
        set({ status: { kind: "error", message: err.message }, streaming: null, lastResult: result });
        return { ok: true, result };
      }
      // A bug below (the loop and adapter return errors as values): report it, keep the app alive.
      const message = `Unexpected failure: ${String((err as Error)?.message ?? err)}`;
      set({ status: { kind: "error", message }, streaming: null });
      throw err;
    }
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    abort() {
      controller?.abort();
    },
    async run(req) {
      if (controller) return { ok: false, reason: "busy", message: "A run is already in progress." };
      const ctrl = new AbortController();
      controller = ctrl;
      try {
        if (!locks) return await runLocked(req, ctrl);
        return await locks.request(lockName(req.sessionId), { ifAvailable: true }, async (lock) => {
          if (lock === null) {
            const message = RUNNING_ELSEWHERE;
            set({ sessionId: req.sessionId, status: { kind: "running-elsewhere", message } });
            return { ok: false, reason: "running-elsewhere", message } as RunOutcome;
          }
          return runLocked(req, ctrl);
        });
      } finally {
        controller = null;
      }
    },
  };
}
