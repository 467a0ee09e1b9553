/**
 * Types shared by the mock OpenAI-compatible server (server.ts) and its client helpers (client.ts).
 * Everything is namespaced by the bearer API key so parallel tests never see each other's scripts.
 */

/** A named failure the server knows how to render in a provider's real wording. */
export type ErrorPreset =
  | "auth" // 401 OpenAI-style invalid_api_key
  | "model-access" // 403 model access denied
  | "not-found" // 404 model not found
  | "rate-limit" // 429 with Retry-After
  | "server" // 500
  | "overloaded" // 503
  | "context-openai" // 400 context_length_exceeded (OpenAI wording)
  | "context-anthropic" // 400 "prompt is too long" (Anthropic wording, as proxies relay it)
  | "context-llamacpp" // 400 "exceeds the available context size" (llama.cpp server)
  | "context-lmstudio"; // 400 "greater than the context length" (LM Studio)

export interface ErrorSpec {
  /** HTTP status; defaults from the preset, else 500. */
  status?: number;
  /** Response body; an object is sent as JSON, a string as text/plain. Defaults from the preset. */
  body?: unknown;
  /** Seconds, sent in the Retry-After header. */
  retryAfter?: number;
  preset?: ErrorPreset;
}

export interface ToolCallSpec {
  name: string;
  /** An object is JSON-encoded; a string is sent as is (may be invalid JSON on purpose). */
  arguments: Record<string, unknown> | string;
  /** Defaults to call_<n>. */
  id?: string;
}

export interface UsageSpec {
  prompt_tokens?: number;
  completion_tokens?: number;
  cached_tokens?: number;
}

/** One scripted reply, consumed by one chat completion request of that key. */
export interface ReplySpec {
  /** One string, or the exact chunks to stream. */
  text?: string | string[];
  /** Reasoning chunks, sent before the text. */
  reasoning?: string[];
  /** Which delta field carries reasoning: DeepSeek's `reasoning_content` (default) or `reasoning`. */
  reasoningField?: "reasoning_content" | "reasoning";
  toolCalls?: ToolCallSpec[];
  usage?: UsageSpec;
  finishReason?: "stop" | "length" | "tool_calls" | "content_filter";
  /** Delay before each streamed chunk (and before a non-streamed answer). */
  delayMs?: number;
  error?: ErrorSpec;
  /**
   * Stop streaming after this many SSE chunks until the test releases the key's reply
   * (POST /__mock/release): a reply that is still being written whatever the machine's speed.
   */
  holdAfterChunks?: number;
  /** Destroy the socket after this many SSE chunks (a dropped stream). */
  cutAfterChunks?: number;
  /** Send `data: {"error": {...}}` after this many chunks and end the stream (OpenAI/OpenRouter style). */
  streamError?: { afterChunks: number; message: string; code?: string };
}

/** The model list of a key: a list of ids or a failure. */
export interface ModelsSpec {
  models?: string[];
  error?: ErrorSpec;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when it is not JSON, or null. */
  body: unknown;
  /** ms since epoch, when the request arrived */
  at: number;
}

export const DEFAULT_MODELS = ["mock-model", "mock-reasoner", "gpt-4o-mini"];
