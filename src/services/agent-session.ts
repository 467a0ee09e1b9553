/**
 * The agent in a session, for the UI: one controller per session (one AgentRunner each), holding
 * what the runner reports plus what the UI shows around it:
 *
 * - `log`: the messages completed in the current (or last) run, in order, as they were appended;
 * - `live`: the reply being streamed (kept until it is saved, so it never blinks away);
 * - `unsaved`: a reply that could not be saved (storage full): shown, marked "not saved";
 * - `elsewhere`: another tab holds the session's Web Lock (polled with navigator.locks.query).
 *
 * `send()` prepares a run: catches up with entries appended elsewhere, appends model_change /
 * thinking_level_change entries when the wanted model or level differs from the path, asks the
 * registered hooks (compaction UI: `beforePrompt` may compact first, `afterRun` may ask for one
 * retry with a new path, e.g. after an overflow), then runs. Every message is appended as soon as
 * it is complete (the loop does that), so a reload after any completed message loses nothing.
 */
import type { AgentRunResult } from "../core/agent/loop.ts";
import { settingsChanges } from "../core/agent/settings.ts";
import type { AgentTool, ToolSpec } from "../core/agent/types.ts";
import { buildSessionContext } from "../core/session/context.ts";
import { currentPath } from "../core/session/tree.ts";
import type { AgentMessage, AssistantMessage, SessionEntry } from "../core/session/types.ts";
import { appendEntries, type CutpointDb, getSession } from "../db/index.ts";
import { providerPreset } from "../llm/providers.ts";
import type { streamAssistant } from "../llm/stream-assistant.ts";
import { activeTools, createWorkspaceTools, toolSpecs, type Workspace } from "../tools/index.ts";
import {
  type AgentRunner,
  createAgentRunner,
  type LockManagerLike,
  type RunnerState,
  type RunRequest,
} from "./agent-runner.ts";
import {
  getApiKey,
  getSystemPrompt,
  loadProviderSettings,
  type ModelLimits,
  modelLimits,
  type ProviderSettings,
} from "./agent-settings.ts";
import { newEntryId } from "./ids.ts";
import { type LoadedSession, loadNewEntries } from "./session-loader.ts";

export type Endpoint = RunRequest["endpoint"];

export interface HookContext {
  sessionId: string;
  /** The current path (root first), ending at the session's leaf. */
  path: SessionEntry[];
  endpoint: Endpoint;
  limits: ModelLimits;
  thinkingLevel: string;
  systemPrompt: string;
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
}

export type SendOutcome =
  | { ok: true; result: AgentRunResult }
  | { ok: false; reason: "busy" | "running-elsewhere" | "setup" | "storage"; message: string };

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
  queryLocks?: (() => Promise<{ held?: { name?: string }[] }>) | null;
  pollMs?: number;
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
  /** The model and thinking level the next prompt uses. */
  effective(
    path: readonly SessionEntry[],
    settings: ProviderSettings,
  ): { modelId: string; thinkingLevel: string };
}

export const lockName = (sessionId: string) => `cutpoint-session-${sessionId}`;

/** Model and thinking level for the next prompt: the path's, else the defaults from settings. */
export function effectiveSettings(
  path: readonly SessionEntry[],
  settings: ProviderSettings,
): { modelId: string; thinkingLevel: string } {
  const ctx = buildSessionContext(path);
  const modelId =
    ctx.model && ctx.model.provider === settings.providerId ? ctx.model.modelId : settings.model;
  const hasLevel = path.some((e) => e.type === "thinking_level_change");
  return { modelId, thinkingLevel: hasLevel ? ctx.thinkingLevel : settings.thinkingLevel };
}

export function createAgentService(deps: AgentServiceDeps) {
  const controllers = new Map<string, SessionController>();
  const hooks = new Set<AgentHooks>();
  const defaultQuery = () => {
    const locks = (globalThis as { navigator?: { locks?: { query?: () => Promise<unknown> } } }).navigator
      ?.locks;
    return locks?.query ? () => locks.query!() as Promise<{ held?: { name?: string }[] }> : null;
  };
  const queryLocks = deps.queryLocks === undefined ? defaultQuery() : deps.queryLocks;

  function controller(sessionId: string): SessionController {
    const existing = controllers.get(sessionId);
    if (existing) return existing;
    let tools: AgentTool[] = [];
    const listeners = new Set<() => void>();
    let recording = false;
    const runner: AgentRunner = createAgentRunner({
      persistence: {
        appendEntries: async (id, entries) => {
          const r = await appendEntries(deps.db, id, entries);
          if (r.ok && recording) onAppended(entries);
          return r;
        },
      },
      tools: () => tools,
      ...(deps.locks !== undefined ? { locks: deps.locks } : {}),
      ...(deps.streamFn ? { streamFn: deps.streamFn } : {}),
      ...(deps.now ? { now: deps.now } : {}),
    });
    let state: SessionAgentState = {
      runner: runner.getState(),
      log: [],
      live: null,
      unsaved: null,
      problem: null,
      elsewhere: false,
      running: false,
    };
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
    const poll = async () => {
      if (!queryLocks || state.running) return;
      try {
        const snapshot = await queryLocks();
        const held = (snapshot.held ?? []).some((l) => l.name === lockName(sessionId));
        if (held !== state.elsewhere && !state.running) set({ elsewhere: held });
      } catch {
        // no lock information: assume nobody else runs it
      }
    };

    async function prepare(loaded: LoadedSession) {
      const caughtUp = await loadNewEntries(deps.db, loaded);
      const row = await getSession(deps.db, sessionId);
      if (!row) return { ok: false as const, message: "This session no longer exists." };
      const path = currentPath(caughtUp.entries);
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
        () => {
          const id = newEntryId(taken);
          taken.add(id);
          return id;
        },
        (deps.now ?? Date.now)(),
      );
      if (changes.length === 0) return { ok: true, path };
      const r = await appendEntries(deps.db, sessionId, changes);
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
      stop: () => runner.abort(),
      effective: effectiveSettings,
      async changeSettings(loaded, wanted) {
        if (state.running) return { ok: false, message: "Wait for the run to finish (or stop it) first." };
        const p = await prepare(loaded);
        if (!p.ok) return p;
        const r = await appendChanges(p.path, p.settings, wanted);
        return r.ok ? { ok: true } : { ok: false, message: `Could not save the change: ${r.message}` };
      },
      async send(loaded, prompt) {
        if (state.running) return { ok: false, reason: "busy", message: "A run is already in progress." };
        set({ running: true, problem: null, unsaved: null, live: null, log: [] });
        try {
          return await sendInner(loaded, prompt);
        } finally {
          recording = false;
          set({ running: false, runner: runner.getState() });
          void poll();
        }
      },
    };

    const fail = (reason: "setup" | "storage", message: string): SendOutcome => {
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
      const endpoint: Endpoint = {
        baseUrl: settings.baseUrl,
        apiKey,
        provider: settings.providerId,
        model: wanted.modelId,
        maxTokens: limits.maxOutput,
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
      for (const h of hooks) {
        const next = await h.beforePrompt?.(ctx());
        if (next) path = next;
      }
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
      const beforeTurn = async (current: readonly SessionEntry[]) => {
        path = [...current];
        let changed = false;
        for (const h of hooks) {
          const next = await h.betweenTurns?.(ctx());
          if (next) {
            path = next;
            changed = true;
          }
        }
        return changed ? path : undefined;
      };
      let outcome = await runner.run({ sessionId, path, prompt, endpoint, systemPrompt, beforeTurn });
      let retried = false;
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
        outcome = await runner.run({ sessionId, path, endpoint, systemPrompt, beforeTurn });
      }
      if (!outcome.ok) {
        if (outcome.reason === "running-elsewhere") set({ elsewhere: true });
        return outcome;
      }
      const result = outcome.result;
      if (result.stopReason === "error" && /^Could not save the session/.test(result.errorMessage ?? "")) {
        set({ unsaved: state.live ?? result.lastAssistant ?? null, live: null });
      }
      return { ok: true, result };
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
