/**
 * The agent service: one controller per session that sends a prompt (settings, prompt and messages
 * appended at the leaf under the run's lock), runs the hooks, sees other tabs' runs, offers cut-off replies.
 */
import { settingsChanges } from "../../core/agent/settings.ts";
import type { AgentTool, ToolSpec } from "../../core/agent/types.ts";
import { buildSessionContext } from "../../core/session/context.ts";
import { pathTo } from "../../core/session/tree.ts";
import type { AgentMessage, SessionEntry } from "../../core/session/types.ts";
import {
  appendAtLeaf,
  clearStaleRunMark,
  dropReplyCheckpoint,
  interruptedReply,
  PAGE_ID,
  saveReplyCheckpoint,
  setLoopActive,
} from "../../db/index.ts";
import { providerPreset } from "../../llm/providers.ts";
import { browserOffline } from "../../llm/stream-assistant.ts";
import { activeTools, createWorkspaceTools, toolSpecs } from "../../tools/index.ts";
import { entryIdSource } from "../common/ids.ts";
import { fitSettings, sessionStartTokens } from "../compaction/compaction-fit.ts";
import { loadCompactionSettings } from "../compaction/compaction-settings.ts";
import type { LoadedSession } from "../session/loaded-session.ts";
import { catchUp } from "../session/session-loader.ts";
import { type AgentRunner, createAgentRunner, type RunRequest } from "./agent-runner.ts";
import {
  getApiKey,
  getSystemPrompt,
  loadProviderSettings,
  modelLimits,
  type ProviderSettings,
} from "./agent-settings.ts";
import {
  dropInterrupted,
  findInterrupted,
  INTERRUPTED_NOTE,
  keepable,
  keepInterrupted,
} from "./interrupted-reply.ts";
import { defaultLockQuery, defaultLocks, lockHeld, lockName, withSessionRun } from "./session-run.ts";

export { lockName };

import {
  type AgentHooks,
  type AgentServiceDeps,
  type Endpoint,
  effectiveSettings,
  type HookContext,
  IDLE_AGENT_STATE,
  type SendOutcome,
  type SessionAgentState,
  type SessionController,
} from "./agent-types.ts";

export * from "./agent-types.ts";

const NOT_SENT_ELSEWHERE =
  "Not sent: this session is running in another tab (it started there first). Nothing was written; your message is back in the box. Send it when that run has finished.";
/** A send while the browser is offline: nothing is written, the text stays (the composer offers it again). */
export const OFFLINE_NOT_SENT =
  "You are offline: nothing was sent and nothing was saved. Your message is still in the box; send it when the connection is back.";
const WAIT_STOPPED = "Stopped: your message was not sent; it is back in the box.";
const KEEP_OR_DROP_FIRST =
  "A reply was cut off by a reload: keep it or drop it (above) before sending, so the session stays in order.";

export function createAgentService(deps: AgentServiceDeps) {
  const controllers = new Map<string, SessionController>();
  const hooks = new Set<AgentHooks>();
  const queryLocks = deps.queryLocks === undefined ? defaultLockQuery() : deps.queryLocks;
  const locks = deps.locks === undefined ? defaultLocks() : deps.locks;
  const owner = deps.owner ?? PAGE_ID;
  const offline = deps.offline ?? browserOffline;

  function controller(sessionId: string): SessionController {
    const existing = controllers.get(sessionId);
    if (existing) return existing;
    let tools: AgentTool[] = [];
    const listeners = new Set<() => void>();
    let recording = false;
    /** The run mark while this tab holds the session's run. */
    let mark: string | null = null;
    /** Stop of the send in progress (ends a wait for a review before the prompt goes out). */
    let stopSend: AbortController | null = null;
    const runner: AgentRunner = createAgentRunner({
      persistence: {
        // Each batch chains to the entry it was planned on: refused when the stored leaf moved.
        appendEntries: async (id, entries) => {
          const r = await appendAtLeaf(
            deps.db,
            id,
            {
              expectedLeafId: entries[0]?.parentId ?? null,
              writer: { owner, ...(mark ? { run: mark } : {}) },
              dropCheckpoint: entries.some(
                (e) => (e as { message?: { role?: string } }).message?.role === "assistant",
              ),
            },
            () => entries,
          );
          if (r.ok && recording) onAppended(entries);
          return r;
        },
        checkpoint: async (id, parentId, message) => {
          if (!mark) return false;
          return saveReplyCheckpoint(deps.db, {
            sessionId: id,
            run: mark,
            parentId,
            message,
            savedAt: Date.now(),
          });
        },
      },
      tools: () => tools,
      locks: null,
      ...(deps.streamFn ? { streamFn: deps.streamFn } : {}),
      ...(deps.now ? { now: deps.now } : {}),
    });
    let state: SessionAgentState = { ...IDLE_AGENT_STATE, runner: runner.getState() };
    const set = (patch: Partial<SessionAgentState>) => {
      state = { ...state, ...patch };
      for (const l of listeners) l();
    };
    function onAppended(entries: readonly SessionEntry[]) {
      const messages = entries.flatMap((e) =>
        e.type === "message" ? [(e as { message: AgentMessage }).message] : [],
      );
      if (messages.length === 0) return;
      const savedReply = messages.some((m) => m.role === "assistant");
      set({ log: [...state.log, ...messages], ...(savedReply ? { live: null } : {}) });
    }
    runner.subscribe(() => {
      const r = runner.getState();
      const patch: Partial<SessionAgentState> = { runner: r };
      if (r.streaming) patch.live = r.streaming;
      if (r.status.kind === "retrying") patch.live = null;
      if (r.status.kind === "running-elsewhere") patch.elsewhere = true;
      set(patch);
    });

    let pollTimer: ReturnType<typeof setInterval> | null = null;
    /** Whether a poll has run (a send before any, e.g. as the agent's code loads, polls first). */
    let looked = false;
    // Who runs the session elsewhere, a mark left by a tab that went away, a reply it left behind.
    const poll = async () => {
      if (state.running) return;
      looked = true;
      const held = await lockHeld(queryLocks, sessionId);
      if (state.running) return;
      if (held !== state.elsewhere) set({ elsewhere: held });
      try {
        if (!held) await clearStaleRunMark(deps.db, sessionId, owner);
        const next = await cutOff(held);
        if (
          !state.running &&
          (next?.run !== state.interrupted?.run || next?.savedAt !== state.interrupted?.savedAt)
        )
          set({ interrupted: next });
      } catch {
        // storage unavailable: try again on the next poll
      }
    };

    /** A reply cut off by a reload or a crash, left for this session (`held`: its run lock is held elsewhere). */
    const cutOff = async (held: boolean) =>
      (await findInterrupted(deps.db, sessionId, { owner, liveElsewhere: held, runningHere: false })) ?? null;

    async function prepare(loaded: LoadedSession) {
      const caught = await catchUp(deps.db, loaded);
      if (!caught.ok)
        return {
          ok: false as const,
          message:
            caught.reason === "not-found"
              ? "This session no longer exists."
              : "This session was replaced (re-imported) meanwhile. Nothing was written; reload it.",
        };
      const { row } = caught;
      const path = pathTo(caught.loaded.entries, row.leafId);
      if (row.leafId !== null && path.at(-1)?.id !== row.leafId)
        return {
          ok: false as const,
          message: "Could not read the session's current position. Nothing was written.",
        };
      const settings = await loadProviderSettings(deps.db);
      return { ok: true as const, path, settings };
    }

    async function appendChanges(
      path: SessionEntry[],
      settings: ProviderSettings,
      wanted: { modelId?: string; thinkingLevel?: string; loadout?: { prompt: string; tools: ToolSpec[] } },
    ): Promise<{ ok: true; path: SessionEntry[] } | { ok: false; message: string }> {
      const taken = new Set(path.map((e) => e.id));
      const changes = settingsChanges(
        path,
        {
          ...(wanted.modelId ? { provider: settings.providerId, modelId: wanted.modelId } : {}),
          ...(wanted.thinkingLevel ? { thinkingLevel: wanted.thinkingLevel } : {}),
          ...(wanted.loadout ? { loadout: wanted.loadout } : {}),
        },
        entryIdSource(taken),
        (deps.now ?? Date.now)(),
      );
      if (changes.length === 0) return { ok: true, path };
      const r = await appendAtLeaf(
        deps.db,
        sessionId,
        { expectedLeafId: path.at(-1)?.id ?? null, writer: { owner, ...(mark ? { run: mark } : {}) } },
        () => changes,
      );
      if (!r.ok) return { ok: false, message: r.error.message };
      return { ok: true, path: [...path, ...changes] };
    }

    const c: SessionController = {
      sessionId,
      getState: () => state,
      subscribe(listener) {
        listeners.add(listener);
        if (listeners.size === 1 && queryLocks && !pollTimer) {
          void poll();
          pollTimer = setInterval(() => void poll(), deps.pollMs ?? 700);
        }
        return () => {
          listeners.delete(listener);
          if (listeners.size === 0 && pollTimer) {
            clearInterval(pollTimer);
            pollTimer = null;
          }
        };
      },
      stop: () => {
        stopSend?.abort();
        runner.abort();
      },
      effective: effectiveSettings,
      async resolveInterrupted(action) {
        const cp = state.interrupted;
        if (!cp) return { ok: true };
        if (state.running) return { ok: false, message: "Wait for the run to finish (or stop it) first." };
        if (action === "drop") {
          await dropInterrupted(deps.db, cp);
          set({ interrupted: null });
          return { ok: true };
        }
        if (!keepable(cp.message))
          return {
            ok: false,
            message: "Nothing of this reply had arrived: there is nothing to keep. Drop it.",
          };
        const r = await keepInterrupted(deps.db, cp, owner);
        if (!r.ok) return { ok: false, message: r.error.message };
        set({
          interrupted: null,
          log: [interruptedReply(cp.message, INTERRUPTED_NOTE)],
          live: null,
          problem: null,
        });
        return { ok: true };
      },
      async changeSettings(loaded, wanted) {
        if (state.running) return { ok: false, message: "Wait for the run to finish (or stop it) first." };
        const p = await prepare(loaded);
        if (!p.ok) return p;
        const r = await appendChanges(p.path, p.settings, wanted);
        return r.ok ? { ok: true } : { ok: false, message: `Could not save the change: ${r.message}` };
      },
      async send(loaded, prompt) {
        if (state.running) return { ok: false, reason: "busy", message: "A run is already in progress." };
        if (state.interrupted) return fail("setup", KEEP_OR_DROP_FIRST);
        // Offline: the request cannot go out; write nothing (no user entry, no error entry).
        if (offline()) return fail("offline", OFFLINE_NOT_SENT);
        // Running from here on, at once: the view that sent it sees the run begin in the same turn.
        set({ running: true, problem: null, unsaved: null, live: null, log: [] });
        stopSend = new AbortController();
        try {
          // Never looked (no view had subscribed: the agent's code loaded for this send): a reply
          // cut off by a reload is found first.
          if (!looked) {
            looked = true;
            const found = await cutOff(await lockHeld(queryLocks, sessionId)).catch(() => null);
            if (found) {
              set({ interrupted: found });
              return fail("setup", KEEP_OR_DROP_FIRST);
            }
          }
          const held = await withSessionRun({ db: deps.db, locks, owner }, sessionId, async (m) => {
            mark = m;
            try {
              return await sendInner(loaded, prompt);
            } finally {
              setLoopActive(deps.db, sessionId, null);
              await dropReplyCheckpoint(deps.db, sessionId, m);
              mark = null;
            }
          });
          if (held.ok) return held.value;
          if (held.reason === "running-elsewhere") {
            set({ elsewhere: true, problem: NOT_SENT_ELSEWHERE });
            return { ok: false, reason: "running-elsewhere", message: NOT_SENT_ELSEWHERE };
          }
          return fail("storage", `Could not start the run: ${held.message}`);
        } finally {
          recording = false;
          stopSend = null;
          set({ running: false, runner: runner.getState() });
          void poll();
        }
      },
    };

    const fail = (reason: "setup" | "storage" | "offline", message: string): SendOutcome => {
      set({ problem: message });
      return { ok: false, reason, message };
    };

    async function sendInner(loaded: LoadedSession, prompt: string): Promise<SendOutcome> {
      const p = await prepare(loaded);
      if (!p.ok) return fail("storage", p.message);
      const { settings } = p;
      const preset = providerPreset(settings.providerId);
      const apiKey = await getApiKey(deps.db, settings.providerId);
      const wanted = effectiveSettings(p.path, settings);
      if (!/^https?:\/\//i.test(settings.baseUrl))
        return fail("setup", "Set up a provider first: open Settings (⚙) and choose a provider or base URL.");
      if (preset.needsKey && apiKey === "")
        return fail("setup", `No API key for ${preset.label}: add one in Settings (⚙).`);
      if (wanted.modelId === "") return fail("setup", "Choose a model in Settings (⚙) first.");
      // The prompt and tools this run offers are declared in the session (a pi 1.6 system message),
      // so that pi sees what the model saw; a session's own prompt is kept.
      const ws = await deps.workspace.current();
      const offered = activeTools(createWorkspaceTools(ws), buildSessionContext(p.path).activeTools);
      const systemPrompt = await getSystemPrompt(deps.db, sessionId);
      const loadout = { prompt: systemPrompt, tools: toolSpecs(offered) };
      const changed = await appendChanges(p.path, settings, { ...wanted, loadout });
      if (!changed.ok) return fail("storage", `Could not save the session: ${changed.message}`);
      let path = changed.path;
      const limits = modelLimits(settings, wanted.modelId);
      // The output budget and window fitted to the model: each request's max_tokens fits the room left.
      const fitted = fitSettings(
        await loadCompactionSettings(deps.db, sessionId),
        limits,
        sessionStartTokens(path),
      );
      const endpoint: Endpoint = {
        baseUrl: settings.baseUrl,
        apiKey,
        provider: settings.providerId,
        model: wanted.modelId,
        maxTokens: fitted.fit.outputBudget,
        contextWindow: fitted.contextWindow,
        reasoning: limits.reasoning,
      };
      const ctx = (): HookContext => ({
        sessionId,
        path,
        endpoint,
        limits,
        thinkingLevel: wanted.thinkingLevel,
        systemPrompt,
      });
      const signal = stopSend?.signal;
      for (const h of hooks) {
        const next = await h.beforePrompt?.({ ...ctx(), prompt, ...(signal ? { signal } : {}) });
        if (next) path = next;
      }
      // Stopped while it waited for a review: nothing was sent; the text goes back to the person.
      if (signal?.aborted) return { ok: false, reason: "stopped", message: WAIT_STOPPED };
      tools = createWorkspaceTools(ws).map((t) => ({
        ...t,
        execute: async (args, context) => {
          try {
            return await t.execute(args, context);
          } finally {
            deps.workspace.touch();
          }
        },
      }));
      recording = true;
      // Only the run's own appends land while its loop writes (src/db run-gate.ts).
      // Between turns the hooks may compact and hand back the path to go on from.
      // Their writes (a compaction) are the run's own: the loop is not writing meanwhile.
      const beforeTurn = async (current: readonly SessionEntry[]) => {
        path = [...current];
        let changed = false;
        setLoopActive(deps.db, sessionId, null);
        try {
          for (const h of hooks) {
            const next = await h.betweenTurns?.({ ...ctx(), ...(signal ? { signal } : {}) });
            if (next) {
              path = next;
              changed = true;
            }
          }
        } finally {
          setLoopActive(deps.db, sessionId, mark);
        }
        return changed ? path : undefined;
      };
      // Only the run's own appends land while its loop writes (src/db run-gate.ts).
      const run = async (req: Omit<RunRequest, "sessionId" | "endpoint" | "systemPrompt">) => {
        setLoopActive(deps.db, sessionId, mark);
        try {
          return await runner.run({ sessionId, endpoint, systemPrompt, beforeTurn, ...req });
        } finally {
          setLoopActive(deps.db, sessionId, null);
        }
      };
      const runWithRetry = async (withPrompt: string | undefined) => {
        let outcome = await run({ path, ...(withPrompt !== undefined ? { prompt: withPrompt } : {}) });
        let retried = false;
        // afterRun sees every run, the retry included; one retry per prompt.
        while (outcome.ok) {
          let retryPath: SessionEntry[] | undefined;
          path = outcome.result.path;
          for (const h of hooks) {
            const r = await h.afterRun?.({ ...ctx(), result: outcome.result });
            if (r?.retryWithPath && !retryPath) retryPath = r.retryWithPath;
          }
          if (!retryPath || retried) break;
          retried = true;
          path = retryPath;
          outcome = await run({ path });
        }
        return outcome;
      };
      // pi 1.6's one rule for a message left without a reply: the new prompt follows it, and the
      // request joins the two (core/agent/request-messages.ts), never two user messages in a row.
      const outcome = await runWithRetry(prompt);
      if (!outcome.ok) {
        if (outcome.reason === "running-elsewhere") set({ elsewhere: true });
        return outcome;
      }
      const result = outcome.result;
      if (result.stopReason === "error" && /^Could not save the session/.test(result.errorMessage ?? "")) {
        set({ unsaved: state.live ?? result.lastAssistant ?? null, live: null });
      }
      // Saved, that is: the prompt's user message is in the log (a failed save leaves it out).
      return { ok: true, result, promptSent: state.log.some((m) => m.role === "user") };
    }

    controllers.set(sessionId, c);
    return c;
  }

  return {
    session: controller,
    /** Registers hooks (compaction UI); returns the unregister function. */
    registerHooks(h: AgentHooks): () => void {
      hooks.add(h);
      return () => hooks.delete(h);
    },
  };
}

export type AgentService = ReturnType<typeof createAgentService>;
