/**
 * The contract of the agent in a session, for the UI and the compaction hooks: the controller's
 * state and methods, the hooks, and the two path rules they share (the path to a leaf, the model
 * and thinking level the next prompt uses).
 */
import type { AgentRunResult } from "../../core/agent/loop.ts";
import { buildSessionContext, type SessionContext } from "../../core/session/context.ts";
import type { AgentMessage, AssistantMessage, SessionEntry } from "../../core/session/types.ts";
import type { CutpointDb, ReplyCheckpointRow } from "../../db/index.ts";
import type { streamAssistant } from "../../llm/stream-assistant.ts";
import type { Workspace } from "../../tools/index.ts";
import type { LoadedSession } from "../session/loaded-session.ts";
import type { RunRequest } from "./agent-runner.ts";
import type { ModelLimits, ProviderSettings } from "./agent-settings.ts";
import { IDLE_RUNNER, type RunnerState } from "./idle-runner.ts";
import type { LockManagerLike, LockQuery } from "./session-run.ts";

export type Endpoint = RunRequest["endpoint"];

export interface HookContext {
  sessionId: string;
  /** The current path (root first), ending at the session's leaf. */
  path: SessionEntry[];
  endpoint: Endpoint;
  limits: ModelLimits;
  thinkingLevel: string;
  systemPrompt: string;
  /** Before a prompt: its text (stored while it waits for a review). */
  prompt?: string;
  /** Aborted by Stop: a wait for a review ends, and the prompt is not sent. */
  signal?: AbortSignal;
}

/** Extension points for the compaction UI (auto-compaction, overflow recovery). */
export interface AgentHooks {
  /** Before a prompt is sent; return a new path (e.g. after compacting) to run from it. */
  beforePrompt?(ctx: HookContext): Promise<SessionEntry[] | undefined>;
  /** Between the turns of a run (after tool results): return a new path (e.g. compacted) to continue from. */
  betweenTurns?(ctx: HookContext): Promise<SessionEntry[] | undefined>;
  /**
   * After each run (the retry included); return `{ retryWithPath }` to continue from that path
   * (no new prompt). One retry per prompt: a second request is not followed.
   */
  afterRun?(
    ctx: HookContext & { result: AgentRunResult },
  ): Promise<{ retryWithPath: SessionEntry[] } | undefined>;
}

export interface SessionAgentState {
  runner: RunnerState;
  /** The prompt and every message completed in this (or the last) run. */
  log: AgentMessage[];
  live: AssistantMessage | null;
  unsaved: AssistantMessage | null;
  /** A problem found before the run started (no key, no model, storage). */
  problem: string | null;
  elsewhere: boolean;
  running: boolean;
  /** A reply cut off by a reload or a crash (no tab streams it any more): keep or drop it. */
  interrupted: ReplyCheckpointRow | null;
}

/** A session's agent state before anything ran (or was found) in this tab. */
export const IDLE_AGENT_STATE: SessionAgentState = {
  runner: IDLE_RUNNER,
  log: [],
  live: null,
  unsaved: null,
  problem: null,
  elsewhere: false,
  running: false,
  interrupted: null,
};

export type SendOutcome =
  /** `promptSent` false: the prompt was not saved (it goes back to the composer). */
  | { ok: true; result: AgentRunResult; promptSent: boolean }
  | {
      ok: false;
      reason: "busy" | "running-elsewhere" | "setup" | "storage" | "offline" | "stopped";
      message: string;
    };

export interface WorkspaceSource {
  current(): Promise<Workspace>;
  touch(): void;
}

export interface AgentServiceDeps {
  db: CutpointDb;
  workspace: WorkspaceSource;
  locks?: LockManagerLike | null;
  streamFn?: typeof streamAssistant;
  now?: () => number;
  /** navigator.locks.query for the "running in another tab" poll; null disables it. */
  queryLocks?: LockQuery | null;
  pollMs?: number;
  /** This tab's id in run marks (src/db PAGE_ID); tests give each simulated tab its own. */
  owner?: string;
  /** Whether the browser is offline (navigator.onLine false); injected for tests. */
  offline?: () => boolean;
}

export interface SessionController {
  readonly sessionId: string;
  getState(): SessionAgentState;
  subscribe(listener: () => void): () => void;
  send(loaded: LoadedSession, prompt: string): Promise<SendOutcome>;
  stop(): void;
  /** Appends model_change / thinking_level_change entries when they differ from the path. */
  changeSettings(
    loaded: LoadedSession,
    wanted: { modelId?: string; thinkingLevel?: string },
  ): Promise<{ ok: true } | { ok: false; message: string }>;
  /** Appends the interrupted reply (stopReason "aborted"), or drops it. */
  resolveInterrupted(action: "keep" | "drop"): Promise<{ ok: true } | { ok: false; message: string }>;
  /** The model and thinking level the next prompt uses. */
  effective(
    path: readonly SessionEntry[],
    settings: ProviderSettings,
    /** `buildSessionContext(path)` when the caller has it (the same result either way). */
    context?: SessionContext,
  ): { modelId: string; thinkingLevel: string };
}

/** Model and thinking level for the next prompt: the path's, else the defaults from settings. */
export function effectiveSettings(
  path: readonly SessionEntry[],
  settings: ProviderSettings,
  ctx: SessionContext = buildSessionContext(path),
): { modelId: string; thinkingLevel: string } {
  const modelId =
    ctx.model && ctx.model.provider === settings.providerId ? ctx.model.modelId : settings.model;
  const hasLevel = path.some((e) => e.type === "thinking_level_change");
  return { modelId, thinkingLevel: hasLevel ? ctx.thinkingLevel : settings.thinkingLevel };
}
