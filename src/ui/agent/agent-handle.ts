/**
 * The tab's agent (services/agent/agent-instance.ts), loaded on demand: its runner, tools and model
 * client are not needed to show the session list or a session, so they are not in the initial
 * bundle. It is fetched when the page is first idle, with the other code loaded on demand, or at
 * once by a send or by a session with agent work in storage (use-agent.ts); until then no run can
 * be going on in this tab.
 */
import { useSyncExternalStore } from "react";
import { importOnce, loadOnce, registerPrefetch } from "../shell/lazy-component.ts";

export type AgentModule = typeof import("../../services/agent/agent-instance.ts");

let agent: AgentModule | undefined;
const onLoad: ((agent: AgentModule) => void)[] = [];
const listeners = new Set<() => void>();

/** The agent's module, fetched again by the next call after a failure (see `importOnce`). */
const importAgent = importOnce<AgentModule>(() => import("../../services/agent/agent-instance.ts"));

/** Loads the agent (once); what `whenAgentLoads` registered runs before anyone else gets it. */
export const loadAgent: () => Promise<AgentModule> = loadOnce(() =>
  importAgent().then((module) => {
    for (const run of onLoad.splice(0)) run(module);
    agent = module;
    // The views hear of it in a task of their own: a send that waited for the code has started
    // its run by then (a run is "running" from its first step), so they never show it idle.
    setTimeout(() => {
      for (const listener of listeners) listener();
    }, 0);
    return module;
  }),
);
// Fetched with the other code loaded on demand, once the page is idle (src/main.tsx).
registerPrefetch(loadAgent);

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
