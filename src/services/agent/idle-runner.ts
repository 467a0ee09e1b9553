/** The agent runner's state as the UI reads it, and the state before anything ran (kept apart from the runner so the UI can name it without loading the runner). */
import type { AgentRunResult } from "../../core/agent/loop.ts";
import type { AssistantMessage } from "../../core/session/types.ts";

export type RunnerStatus =
  | { kind: "idle" }
  | { kind: "streaming"; turn: number }
  /** `retryAt` is ms since epoch: show a countdown to it. */
  | { kind: "retrying"; attempt: number; delayMs: number; retryAt: number; reason: string }
  | { kind: "running-tool"; toolName: string; toolCallId: string }
  | { kind: "error"; message: string }
  | { kind: "running-elsewhere"; message: string };

export interface RunnerState {
  status: RunnerStatus;
  /** The session of the current or last run. */
  sessionId: string | null;
  /** Snapshot of the reply being streamed (null between replies). */
  streaming: AssistantMessage | null;
  /** The outcome of the last finished run. */
  lastResult: AgentRunResult | null;
}

/** A runner that has run nothing yet. */
export const IDLE_RUNNER: RunnerState = {
  status: { kind: "idle" },
  sessionId: null,
  streaming: null,
  lastResult: null,
};
