/**
 * Classifies failures of an OpenAI-compatible endpoint into kinds with plain, actionable messages.
 * Pure: the SDK's error objects are read structurally (status, error body, headers, message), so
 * tests can feed plain objects.
 */

import { withProviderWords } from "../core/agent/provider-words.ts";
import { isContextOverflowError } from "../core/compaction/overflow.ts";
import { providerPreset } from "./providers.ts";

export type LlmErrorKind =
  | "auth"
  | "model-access"
  | "not-found"
  | "rate-limit"
  | "quota"
  | "context-overflow"
  | "bad-request"
  | "server"
  | "cors-or-network"
  | "mixed-content"
  | "stream-dropped"
  | "aborted"
  | "invalid-url"
  | "unknown";

export interface LlmError {
  kind: LlmErrorKind;
  status?: number;
  /** The provider's own text (kept verbatim so context-overflow detection works on it). */
  providerText: string;
  /**
   * A full sentence for the person: what happened and what to do; the provider's own text, when
   * there is one, follows it (core/agent/provider-words.ts: shown one click away).
   */
  message: string;
  retryAfterMs?: number;
}

export interface ErrorContext {
  baseUrl: string;
  model: string;
  /** Preset id, for provider-specific hints (Ollama / LM Studio CORS). */
  provider?: string;
  /** location.protocol of the page, e.g. "https:"; undefined outside a browser. */
  pageProtocol?: string;
  /** Whether content had streamed before the failure. */
  streamed?: boolean;
  /** The browser said it was offline (navigator.onLine false) when the request failed. */
  offline?: boolean;
}

/** The message for a request that failed while the browser is offline. */
export function offlineMessage(baseUrl: string): string {
  return `You are offline: the model endpoint ${baseUrl} cannot be reached. Your sessions still open, change and compact with the Offline summary; send again when you are back online.`;
}

/**
 * Whether a provider's error text means "the prompt does not fit the context window": the
 * authoritative wording list of core/compaction (docs/session-format.md §13), so the adapter's
 * classification and the overflow recovery always agree.
 */
export const looksLikeOverflow = (text: string): boolean => isContextOverflowError(text);

/**
 * An overflow in plain words; the provider's own words follow (the overflow rules of
 * core/compaction read them there).
 */
export function overflowMessage(raw: string): string {
  return withProviderWords("The conversation is too long for this model's context window.", raw);
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function isLocalEndpoint(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname;
    return (
      LOCAL_HOSTS.has(host) ||
      /^(10|127|192\.168|172\.(1[6-9]|2\d|3[01]))\./.test(host) ||
      host.endsWith(".local")
    );
  } catch {
    return false;
  }
}

/** An http:// endpoint (not localhost) called from an https:// page: the browser blocks it. */
export function isMixedContent(baseUrl: string, pageProtocol: string | undefined): boolean {
  if (pageProtocol !== "https:") return false;
  try {
    const url = new URL(baseUrl);
    return url.protocol === "http:" && !LOCAL_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

function providerTextOf(err: Record<string, unknown>): string {
  const body = err.error;
  if (typeof body === "string") return body;
  if (body && typeof body === "object") {
    const b = body as Record<string, unknown>;
    if (typeof b.message === "string") return b.message;
    if (
      b.error &&
      typeof b.error === "object" &&
      typeof (b.error as { message?: unknown }).message === "string"
    ) {
      return (b.error as { message: string }).message;
    }
    if (typeof b.error === "string") return b.error;
  }
  const msg = typeof err.message === "string" ? err.message : String(err);
  // The SDK prefixes "<status> "; keep only the provider's part.
  return msg.replace(/^\d{3}\s+/, "");
}

function headerGetter(err: Record<string, unknown>): { get(name: string): string | null } | undefined {
  const h = err.headers as { get?: unknown } | undefined;
  return h && typeof h.get === "function" ? (h as { get(name: string): string | null }) : undefined;
}

/** Structural check; the adapter also passes `signalAborted` (class names do not survive minification). */
const isAbortLike = (err: Record<string, unknown>) => err.name === "AbortError";

/**
 * Maps any thrown value of a request to an LlmError. `signalAborted` wins over everything: an
 * abort by the person is never reported as a network failure.
 */
export function classifyError(
  thrown: unknown,
  ctx: ErrorContext,
  signalAborted = false,
  retryAfterMs?: number,
): LlmError {
  const err = (thrown && typeof thrown === "object" ? thrown : { message: String(thrown) }) as Record<
    string,
    unknown
  >;
  if (signalAborted || isAbortLike(err)) {
    return { kind: "aborted", providerText: "", message: "Stopped." };
  }
  const status = typeof err.status === "number" ? err.status : undefined;
  const text = providerTextOf(err);
  const raw = status !== undefined ? `${status} ${text}` : text;
  const { model } = ctx;

  if (status === undefined) {
    if (ctx.streamed) {
      return {
        kind: "stream-dropped",
        providerText: text,
        message: `The connection dropped while the reply was streaming (${text || "connection lost"}). What arrived is kept; send again to continue.`,
      };
    }
    if (looksLikeOverflow(text))
      return { kind: "context-overflow", providerText: text, message: overflowMessage(text) };
    if (ctx.offline)
      return { kind: "cors-or-network", providerText: text, message: offlineMessage(ctx.baseUrl) };
    if (isMixedContent(ctx.baseUrl, ctx.pageProtocol)) {
      return {
        kind: "mixed-content",
        providerText: text,
        message: `This page is served over https, so the browser blocks requests to the plain-http endpoint ${ctx.baseUrl} (mixed content). Use an https endpoint, or run the app itself from http://localhost.`,
      };
    }
    const hint = ctx.provider ? providerPreset(ctx.provider).corsHint : undefined;
    const local = isLocalEndpoint(ctx.baseUrl)
      ? " If the browser asked whether this site may access devices on your local network, allow it."
      : "";
    return {
      kind: "cors-or-network",
      providerText: text,
      message: `Could not reach ${ctx.baseUrl} (${text || "Failed to fetch"}). Either the server is not running or unreachable, or it does not allow requests from this page's origin (CORS). ${hint ?? 'For a local server, allow this origin: Ollama with OLLAMA_ORIGINS, LM Studio with its "Enable CORS" switch.'}${local}`,
    };
  }

  if (looksLikeOverflow(raw))
    return { kind: "context-overflow", status, providerText: text, message: overflowMessage(raw) };
  if (status === 401) {
    return {
      kind: "auth",
      status,
      providerText: text,
      message: withProviderWords(
        "The API key was rejected (401). Check the key in Settings for this endpoint.",
        raw,
      ),
    };
  }
  if (status === 403) {
    return {
      kind: "model-access",
      status,
      providerText: text,
      message: withProviderWords(
        `The key has no access to model "${model}" (403). Pick another model or enable it for this key/project.`,
        raw,
      ),
    };
  }
  if (status === 404) {
    return {
      kind: "not-found",
      status,
      providerText: text,
      message: withProviderWords(
        `Not found (404). Check the model name "${model}" and that the base URL ${ctx.baseUrl} ends where /chat/completions starts (usually with /v1).`,
        raw,
      ),
    };
  }
  if (status === 429) {
    const quota = /quota|billing|insufficient|credit/i.test(text);
    const retryAfter = retryAfterMs !== undefined ? ` Retry after ${Math.ceil(retryAfterMs / 1000)} s.` : "";
    return quota
      ? {
          kind: "quota",
          status,
          providerText: text,
          message: withProviderWords(
            "The account's quota or credit is used up (429). Check billing with the provider.",
            raw,
          ),
        }
      : {
          kind: "rate-limit",
          status,
          providerText: text,
          message: withProviderWords(
            `Rate limited by the provider (429): too many requests for now.${retryAfter} Wait a moment and send again.`,
            raw,
          ),
          ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        };
  }
  if (status >= 500) {
    return {
      kind: "server",
      status,
      providerText: text,
      message: withProviderWords(`The provider's server failed (${status}). Try again in a moment.`, raw),
    };
  }
  if (status === 400 || status === 413 || status === 422) {
    return {
      kind: "bad-request",
      status,
      providerText: text,
      message: withProviderWords(`The provider refused the request (${status}).`, raw),
    };
  }
  return {
    kind: "unknown",
    status,
    providerText: text,
    message: withProviderWords(`The request failed (${status}).`, raw),
  };
}

export { headerGetter };
