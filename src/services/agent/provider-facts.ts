/** The provider presets and model facts the UI shows, from src/llm (which the UI does not import). */
export { isMixedContent } from "../../llm/errors.ts";
export {
  type ModelInfo,
  modelInfo,
  NO_PROVIDER,
  PROVIDER_PRESETS,
  type ProviderId,
  type ProviderPreset,
  providerPreset,
} from "../../llm/providers.ts";
