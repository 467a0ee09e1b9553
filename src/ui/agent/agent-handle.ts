/**
 * The tab's agent (services/agent-instance.ts), loaded on demand: its runner, tools and model
 * client are not needed to show the session list or a session, so they are not in the initial
 * bundle. A session's composer loads it when the page is next idle, a second later at most
 * (`loadAgentWhenIdle`: a big session's load goes first), and a send at once; until then no run
 * can be going on in this tab.
 */
import { useSyncExternalStore } from "react";

export type AgentModule = typeof import("../../services/agent-instance.ts");

let agent: AgentModule | undefined;
let loading: Promise<AgentModule> | undefined;
const onLoad: ((agent: AgentModule) => void)[] = [];
const listeners = new Set<() => void>();

/** Loads the agent (once); what `whenAgentLoads` registered runs before anyone else gets it. */
export function loadAgent(): Promise<AgentModule> {
  loading ??= import("../../services/agent-instance.ts").then(
    (module) => {
      for (const run of onLoad.splice(0)) run(module);
      agent = module;
      // The views hear of it in a task of their own: a send that waited for the code has started
      // its run by then (a run is "running" from its first step), so they never show it idle.
      setTimeout(() => {
        for (const listener of listeners) listener();
      }, 0);
      return module;
    },
    (error: unknown) => {
      loading = undefined; // asked for again on the next use
      throw error;
    },
  );
  return loading;
}

/** The longest the idle load waits for an idle moment. */
const IDLE_TIMEOUT_MS = 1000;

type IdleScheduler = (run: () => void, options?: { timeout: number }) => number;

/** Loads the agent when the page is idle (or after IDLE_TIMEOUT_MS); errors are logged. */
export function loadAgentWhenIdle(): void {
  if (agent || loading) return;
  const idle =
    (globalThis as { requestIdleCallback?: IdleScheduler }).requestIdleCallback ??
    ((run: () => void) => setTimeout(run, IDLE_TIMEOUT_MS));
  idle(() => void loadAgent().catch((e) => console.error("loading the agent failed", e)), {
    timeout: IDLE_TIMEOUT_MS,
  });
}

/** The agent when its code is there, else undefined (then nothing runs in this tab). */
export function loadedAgent(): AgentModule | undefined {
  return agent;
}

/** Runs `run` with the agent as soon as it loads (before any run can start), or now. */
export function whenAgentLoads(run: (agent: AgentModule) => void): void {
  if (agent) run(agent);
  else onLoad.push(run);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** `loadedAgent()`, as a React hook: re-renders once the agent has loaded. */
export function useLoadedAgent(): AgentModule | undefined {
  return useSyncExternalStore(subscribe, loadedAgent, loadedAgent);
}
