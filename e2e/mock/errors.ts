/** Error bodies in the wordings real providers use, so the app's error mapping is tested against them. */
import type { ErrorPreset, ErrorSpec } from "./types.ts";

interface Rendered {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

const openAiError = (message: string, type: string, code: string | null, param: string | null = null) => ({
  error: { message, type, param, code },
});

export const PRESETS: Record<ErrorPreset, { status: number; body: unknown; retryAfter?: number }> = {
  auth: {
    status: 401,
    body: openAiError(
      "Incorrect API key provided: sk-mock***. You can find your API key at https://platform.openai.com/account/api-keys.",
      "invalid_request_error",
      "invalid_api_key",
    ),
  },
  "model-access": {
    status: 403,
    body: openAiError(
      "Project does not have access to model `mock-model`.",
      "invalid_request_error",
      "model_not_found",
    ),
  },
  "not-found": {
    status: 404,
    body: openAiError(
      "The model `mock-missing` does not exist or you do not have access to it.",
      "invalid_request_error",
      "model_not_found",
    ),
  },
  "rate-limit": {
    status: 429,
    retryAfter: 1,
    body: openAiError(
      "Rate limit reached for requests. Please try again in 1s.",
      "requests",
      "rate_limit_exceeded",
    ),
  },
  server: {
    status: 500,
    body: openAiError("The server had an error while processing your request.", "server_error", null),
  },
  overloaded: { status: 503, body: openAiError("The engine is currently overloaded.", "server_error", null) },
  "context-openai": {
    status: 400,
    body: openAiError(
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
      "invalid_request_error",
      "context_length_exceeded",
      "messages",
    ),
  },
  "context-anthropic": {
    status: 400,
    body: {
      type: "error",
      error: { type: "invalid_request_error", message: "prompt is too long: 213462 tokens > 200000 maximum" },
    },
  },
  "context-llamacpp": {
    status: 400,
    body: {
      error: {
        code: 400,
        message: "the request exceeds the available context size, try increasing it",
        type: "exceed_context_size_error",
        n_prompt_tokens: 9000,
        n_ctx: 8192,
      },
    },
  },
  "context-lmstudio": {
    status: 400,
    body: {
      error:
        "Trying to keep the first 9120 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input. The number of tokens to keep from the initial prompt is greater than the context length",
    },
  },
};

export function errorResponse(spec: ErrorSpec): Rendered {
  const preset = spec.preset ? PRESETS[spec.preset] : undefined;
  const status = spec.status ?? preset?.status ?? 500;
  const body = spec.body ?? preset?.body ?? openAiError(`Mock error ${status}`, "server_error", null);
  const retryAfter = spec.retryAfter ?? preset?.retryAfter;
  const headers: Record<string, string> = {};
  if (retryAfter !== undefined) headers["retry-after"] = String(retryAfter);
  return { status, body, headers };
}
