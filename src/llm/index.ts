/**
 * The model adapter's public API. See each module for details.
 *
 * - streamAssistant(params) -> Promise<AssistantMessage>: one streamed request; never throws.
 * - listModels / testConnection: settings checks; values, never throws.
 * - createCompleteFn(config): the compaction summarizer's complete() over this adapter.
 * - PROVIDER_PRESETS / modelInfo: presets and a table of known model limits and prices.
 */
export {
  type CompleteConfig,
  type CompleteFn,
  type CompleteRequest,
  type CompleteResult,
  createCompleteFn,
} from "./complete.ts";
export {
  type ListModelsResult,
  listModels,
  type TestConnectionResult,
  testConnection,
} from "./connection.ts";
export {
  classifyError,
  isMixedContent,
  type LlmError,
  type LlmErrorKind,
  looksLikeOverflow,
} from "./errors.ts";
export { type ToolDefinition, toChatMessages, toChatTools } from "./messages.ts";
export {
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MAX_OUTPUT,
  type ModelInfo,
  type ModelPrices,
  modelInfo,
  PROVIDER_PRESETS,
  type ProviderId,
  type ProviderPreset,
  presetForBaseUrl,
  providerPreset,
} from "./providers.ts";
export { MAX_RETRIES, parseRetryAfter, type RetryDecision, retryDecision } from "./retry.ts";
export { type EndpointConfig, type StreamAssistantParams, streamAssistant } from "./stream-assistant.ts";
export { API_NAME, type AssistantStreamEvent, StreamMapper } from "./stream-mapper.ts";
