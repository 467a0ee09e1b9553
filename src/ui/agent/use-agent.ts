/** React bindings of the agent service: per-session state, settings, workspace. */
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState, useSyncExternalStore } from "react";
import { db } from "../../db/instance.ts";
import { agentService, agentWorkspace } from "../../services/agent-instance.ts";
import type { SessionAgentState, SessionController } from "../../services/agent-session.ts";
import { loadProviderSettings, type ProviderSettings } from "../../services/agent-settings.ts";
import type { WorkspaceState } from "../../services/agent-workspace.ts";

export function useSessionAgent(sessionId: string): {
  controller: SessionController;
  state: SessionAgentState;
} {
  const controller = agentService.session(sessionId);
  const state = useSyncExternalStore(controller.subscribe, controller.getState, controller.getState);
  return { controller, state };
}

/** Live provider settings (undefined while loading). */
export function useProviderSettings(): ProviderSettings | undefined {
  return useLiveQuery(() => loadProviderSettings(db), []);
}

export function useWorkspace(): WorkspaceState {
  useEffect(() => {
    void agentWorkspace.init();
  }, []);
  return useSyncExternalStore(agentWorkspace.subscribe, agentWorkspace.getState, agentWorkspace.getState);
}

/** Seconds left until `at` (ms since epoch), ticking every 250 ms; null without a target. */
export function useCountdown(at: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [at]);
  return at === null ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
