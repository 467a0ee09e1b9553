/** React bindings of the agent service: per-session state and the provider settings. */
import { useEffect, useState, useSyncExternalStore } from "react";
import type { ProviderSettings } from "../../services/agent/agent-settings.ts";
import {
  effectiveSettings,
  IDLE_AGENT_STATE,
  type SessionAgentState,
  type SessionController,
} from "../../services/agent/agent-types.ts";
import { providerSettings } from "../../services/agent/provider-instance.ts";
import { watchStoredAgentWork } from "../../services/agent/stranded-instance.ts";
import { useLive } from "../data/use-live.ts";
import { loadAgent, useLoadedAgent } from "./agent-handle.ts";

/**
 * The session's agent controller and state. Until the agent's code has loaded (when the page is
 * first idle: ui/agent/agent-handle.ts), a stand-in: nothing runs, and what is asked of it waits for the code.
 * A session with agent work in storage (a reply cut off by a reload, a run in another tab) has the
 * code loaded at once, so that the person sees it without waiting for the page to be idle.
 */
export function useSessionAgent(sessionId: string): {
  controller: SessionController;
  state: SessionAgentState;
  /** The agent's code has loaded (until then `controller` is the stand-in). */
  ready: boolean;
} {
  const agent = useLoadedAgent();
  const loaded = agent !== undefined;
  // Read only until the code is there (then nothing is asked of the database here). A failed read
  // only means the code loads when the page is idle, as it would anyway.
  const stored = useLive(() => (loaded ? undefined : watchStoredAgentWork(sessionId)), [sessionId, loaded]);
  useEffect(() => {
    if (stored) loadAgent().catch(() => undefined);
  }, [stored]);
  const controller = agent ? agent.agentService.session(sessionId) : standIn(sessionId);
  const state = useSyncExternalStore(controller.subscribe, controller.getState, controller.getState);
  return { controller, state, ready: loaded };
}

const standIns = new Map<string, SessionController>();

const NOT_LOADED = "The agent's code could not be loaded (no network, and this version is not cached).";
const NOT_SENT = `${NOT_LOADED} Nothing was sent; your message is back in the box. Try again when you are online.`;
const NOT_CHANGED = `${NOT_LOADED} Nothing was changed. Try again when you are online.`;

/** A controller for `sessionId` that hands every request to the real one once it has loaded. */
function standIn(sessionId: string): SessionController {
  let c = standIns.get(sessionId);
  if (c) return c;
  const real = () =>
    loadAgent().then(
      (agent) => agent.agentService.session(sessionId),
      () => undefined,
    );
  c = {
    sessionId,
    getState: () => IDLE_AGENT_STATE,
    subscribe: () => () => {},
    send: async (loaded, prompt) =>
      (await real())?.send(loaded, prompt) ?? { ok: false, reason: "setup", message: NOT_SENT },
    // Nothing runs before the code is there.
    stop: () => {},
    changeSettings: async (loaded, wanted) =>
      (await real())?.changeSettings(loaded, wanted) ?? { ok: false, message: NOT_CHANGED },
    resolveInterrupted: async (action) =>
      (await real())?.resolveInterrupted(action) ?? { ok: false, message: NOT_CHANGED },
    effective: effectiveSettings,
  };
  standIns.set(sessionId, c);
  return c;
}

/** Live provider settings (undefined while loading). */
export function useProviderSettings(): ProviderSettings | undefined {
  return useLive(providerSettings.watch, []);
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
