/**
 * streamAssistant: one model request over the openai SDK (Chat Completions, streaming), in the
 * browser or Node. Never throws: every failure comes back as an AssistantMessage with stopReason
 * "error" (and a plain errorMessage) or "aborted" (keeping what streamed).
 *
 * The API key only goes into the Authorization header, and only where key-guard.ts allows it; it
 * is never logged, put in a URL or in the returned message. The SDK itself is fetched on the
 * first request (key-guard's `loadOpenAi`), so it is not part of the app's initial bundle.
 */
import type OpenAI from "openai";
import type { AgentMessage, AssistantMessage } from "../core/session/types.ts";
import { classifyError, headerGetter } from "./errors.ts";
import { loadOpenAi, openClient, redactKey } from "./key-guard.ts";
import { type ToolDefinition, toChatMessages, toChatTools } from "./messages.ts";
import { modelInfo, providerPreset } from "./providers.ts";
import { parseRetryAfter, retryDecision } from "./retry.ts";
import { type AssistantStreamEvent, StreamMapper } from "./stream-mapper.ts";

export interface EndpointConfig {
  /** OpenAI-compatible base URL, e.g. https://api.openai.com/v1 */
  baseUrl: string;
  /** "" (none), a key ref of the key store (key-guard.ts), or a key typed for this request. */
  apiKey: string;
  /** Preset id (see providers.ts) or any name; stored as the message's `provider`. */
  provider: string;
}

export interface StreamAssistantParams extends EndpointConfig {
  model: string;
  systemPrompt: string;
  /** pi messages, already converted with session-core's toLlmMessages. */
  messages: readonly AgentMessage[];
  tools?: readonly ToolDefinition[];
  maxTokens?: number;
  /** Sent as reasoning_effort when set and not "off" (e.g. the session's thinking level). */
  reasoningEffort?: string;
  signal?: AbortSignal;
  onEvent?: (event: AssistantStreamEvent) => void;
  /** Injected for tests. */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /**
   * Stop the request when nothing arrives for this long (before the response or between chunks);
   * default 5 min, since reasoning models may think long before their first chunk.
   */
  idleTimeoutMs?: number;
  /** Custom fetch (tests, or a proxy); defaults to the global fetch. */
  fetch?: typeof fetch;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 5 * 60 * 1000;

/** The idle period as the stall message says it: "150 ms", "45 s", "5 min". */
export function idlePeriod(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms / 1000)} s`;
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

const pageProtocol = (): string | undefined =>
  (globalThis as { location?: { protocol?: string } }).location?.protocol;

/** Whether the browser says it is offline (never true outside a browser). */
export const browserOffline = (): boolean =>
  (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false;

/** Builds the request body (exported for tests). */
export function buildRequestBody(
  p: StreamAssistantParams,
): OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming {
  const preset = providerPreset(p.provider);
  const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming = {
    model: p.model,
    messages: toChatMessages(p.systemPrompt, p.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (p.tools && p.tools.length > 0) body.tools = toChatTools(p.tools);
  if (p.maxTokens !== undefined) {
    if (preset.maxTokensField === "max_completion_tokens") body.max_completion_tokens = p.maxTokens;
    else body.max_tokens = p.maxTokens;
  }
  if (p.reasoningEffort && p.reasoningEffort !== "off") {
    body.reasoning_effort = p.reasoningEffort as OpenAI.ReasoningEffort;
  }
  return body;
}

export async function streamAssistant(p: StreamAssistantParams): Promise<AssistantMessage> {
  const now = p.now ?? Date.now;
  const sleep = p.sleep ?? abortableSleep;
  const idleTimeoutMs = p.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const emit = p.onEvent ?? (() => {});
  const { APIUserAbortError } = await loadOpenAi();
  const body = buildRequestBody(p);
  const prices = modelInfo(p.model).prices;
  const opened = await openClient(p, p.fetch);
  if (!opened.ok) {
    const refused = new StreamMapper(
      { provider: p.provider, model: p.model, timestamp: now(), prices },
      emit,
    );
    return done(refused.finish({ stopReason: "error", errorMessage: opened.message }));
  }
  const { client, secret } = opened;
  const ctx = { baseUrl: p.baseUrl, model: p.model, provider: p.provider, pageProtocol: pageProtocol() };

  let attempt = 0;
  for (;;) {
    const mapper = new StreamMapper({ provider: p.provider, model: p.model, timestamp: now(), prices }, emit);
    const aborted = () => p.signal?.aborted === true;
    let responded = false;
    // The request's own signal: the person's abort, or the idle watchdog (a stalled endpoint).
    const inner = new AbortController();
    const forward = () => inner.abort();
    p.signal?.addEventListener("abort", forward, { once: true });
    let stalled = false;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const feed = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        stalled = true;
        inner.abort();
      }, idleTimeoutMs);
    };
    try {
      if (aborted()) throw new APIUserAbortError();
      feed();
      const stream = await client.chat.completions.create(body, { signal: inner.signal });
      responded = true;
      mapper.start();
      for await (const chunk of stream) {
        feed();
        mapper.push(chunk);
      }
      if (aborted()) return done(mapper.finish({ stopReason: "aborted" }));
      // The SDK ends the iteration quietly when its signal fires: a stall must still be an error.
      if (stalled) throw new APIUserAbortError();
      return done(mapper.finish());
    } catch (thrown) {
      if (aborted() || (!stalled && thrown instanceof APIUserAbortError)) {
        return done(mapper.finish({ stopReason: "aborted" }));
      }
      const errObj = thrown as Record<string, unknown>;
      const offline = browserOffline();
      const retryAfterMs = parseRetryAfter(headerGetter(errObj ?? {}), now());
      const error = stalled
        ? {
            kind: "stream-dropped" as const,
            status: undefined,
            message: `No data from ${p.baseUrl} for ${idlePeriod(idleTimeoutMs)}; the request was stopped.${mapper.streamed ? " What arrived is kept." : ""}`,
          }
        : classifyError(
            thrown,
            { ...ctx, streamed: mapper.streamed || responded, offline },
            false,
            retryAfterMs,
          );
      const decision = retryDecision({
        attempt,
        status: error.status,
        streamed: mapper.streamed,
        network: error.kind === "cors-or-network" || error.kind === "stream-dropped",
        quotaExhausted: error.kind === "quota",
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        random: (p.random ?? Math.random)(),
      });
      // Offline: retrying cannot help until the network is back; the person sends again.
      if (decision.retry && !offline && error.kind !== "context-overflow" && error.kind !== "mixed-content") {
        attempt++;
        emit({ type: "retry", attempt, delayMs: decision.delayMs, reason: decision.reason });
        await sleep(decision.delayMs, p.signal);
        if (aborted()) return done(mapper.finish({ stopReason: "aborted" }));
        continue;
      }
      return done(mapper.finish({ stopReason: "error", errorMessage: redactKey(error.message, secret) }));
    } finally {
      clearTimeout(watchdog);
      p.signal?.removeEventListener("abort", forward);
    }
  }

  function done(message: AssistantMessage): AssistantMessage {
    emit({ type: "done", message });
    return message;
  }
}
