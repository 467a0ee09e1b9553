/**
 * Provider presets and a small table of known models (context window, max output, prices).
 * Everything here is data: the settings UI lists PROVIDER_PRESETS, and the adapter asks
 * `modelInfo(id)` for limits and prices. Unknown models fall back to a 128k window.
 */

export type ProviderId =
  | "openai"
  | "openrouter"
  | "groq"
  | "deepseek"
  | "mistral"
  | "together"
  | "ollama"
  | "lmstudio"
  | "custom";

/** The provider setting before the person chose one: nothing is contacted. */
export const NO_PROVIDER = "none";
export type ProviderChoice = ProviderId | typeof NO_PROVIDER;

export interface ProviderPreset {
  id: ProviderId;
  label: string;
  /** OpenAI-compatible base URL (ends before /chat/completions). Empty for custom. */
  baseUrl: string;
  /** Whether a key is needed (local servers accept any). */
  needsKey: boolean;
  /** Field that carries the output budget: OpenAI's newer name or the classic one most others accept. */
  maxTokensField: "max_completion_tokens" | "max_tokens";
  /** Help shown when the browser cannot reach the endpoint (CORS). */
  corsHint?: string;
  /** Where a person gets a key. */
  keyUrl?: string;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    id: "openai",
    label: "OpenAI",
    baseUrl: "https://api.openai.com/v1",
    needsKey: true,
    maxTokensField: "max_completion_tokens",
    keyUrl: "https://platform.openai.com/api-keys",
  },
  {
    id: "openrouter",
    label: "OpenRouter",
    baseUrl: "https://openrouter.ai/api/v1",
    needsKey: true,
    maxTokensField: "max_tokens",
    keyUrl: "https://openrouter.ai/keys",
  },
  {
    id: "groq",
    label: "Groq",
    baseUrl: "https://api.groq.com/openai/v1",
    needsKey: true,
    maxTokensField: "max_tokens",
    keyUrl: "https://console.groq.com/keys",
  },
  {
    id: "deepseek",
    label: "DeepSeek",
    baseUrl: "https://api.deepseek.com/v1",
    needsKey: true,
    maxTokensField: "max_tokens",
    keyUrl: "https://platform.deepseek.com/api_keys",
  },
  {
    id: "mistral",
    label: "Mistral",
    baseUrl: "https://api.mistral.ai/v1",
    needsKey: true,
    maxTokensField: "max_tokens",
    keyUrl: "https://console.mistral.ai/api-keys",
  },
  {
    id: "together",
    label: "Together AI",
    baseUrl: "https://api.together.xyz/v1",
    needsKey: true,
    maxTokensField: "max_tokens",
    keyUrl: "https://api.together.ai/settings/api-keys",
  },
  {
    id: "ollama",
    label: "Ollama (local)",
    baseUrl: "http://localhost:11434/v1",
    needsKey: false,
    maxTokensField: "max_tokens",
    corsHint:
      "Ollama only answers web pages from origins it allows: start it with OLLAMA_ORIGINS set to this page's origin (for example OLLAMA_ORIGINS=https://your-app.example ollama serve), then retry.",
  },
  {
    id: "lmstudio",
    label: "LM Studio (local)",
    baseUrl: "http://localhost:1234/v1",
    needsKey: false,
    maxTokensField: "max_tokens",
    corsHint: 'In LM Studio, open the Developer tab (local server) and switch on "Enable CORS", then retry.',
  },
  {
    id: "custom",
    label: "Custom (OpenAI-compatible)",
    baseUrl: "",
    needsKey: true,
    maxTokensField: "max_tokens",
  },
];

export function providerPreset(id: string): ProviderPreset {
  return PROVIDER_PRESETS.find((p) => p.id === id) ?? PROVIDER_PRESETS[PROVIDER_PRESETS.length - 1]!;
}

/** Guesses the preset from a base URL (for "custom" entries that are really a known host). */
export function presetForBaseUrl(baseUrl: string): ProviderPreset {
  const norm = baseUrl.replace(/\/+$/, "").toLowerCase();
  return (
    PROVIDER_PRESETS.find((p) => p.baseUrl !== "" && norm === p.baseUrl.toLowerCase()) ??
    providerPreset("custom")
  );
}

/** USD per million tokens. */
export interface ModelPrices {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

export interface ModelInfo {
  contextWindow: number;
  maxOutput: number;
  /** Accepts reasoning_effort. */
  reasoning?: boolean;
  prices?: ModelPrices;
}

export const DEFAULT_CONTEXT_WINDOW = 128_000;
export const DEFAULT_MAX_OUTPUT = 16_384;

/**
 * Known models, matched by the FIRST pattern that matches the model id (ids may carry a vendor
 * prefix such as "openai/gpt-4o" on OpenRouter, or a tag such as "llama3.1:8b" on Ollama).
 */
const MODEL_TABLE: readonly [RegExp, ModelInfo][] = [
  [
    /gpt-4\.1-nano/,
    { contextWindow: 1_047_576, maxOutput: 32_768, prices: { input: 0.1, output: 0.4, cacheRead: 0.025 } },
  ],
  [
    /gpt-4\.1-mini/,
    { contextWindow: 1_047_576, maxOutput: 32_768, prices: { input: 0.4, output: 1.6, cacheRead: 0.1 } },
  ],
  [
    /gpt-4\.1/,
    { contextWindow: 1_047_576, maxOutput: 32_768, prices: { input: 2, output: 8, cacheRead: 0.5 } },
  ],
  [
    /gpt-4o-mini/,
    { contextWindow: 128_000, maxOutput: 16_384, prices: { input: 0.15, output: 0.6, cacheRead: 0.075 } },
  ],
  [
    /gpt-4o/,
    { contextWindow: 128_000, maxOutput: 16_384, prices: { input: 2.5, output: 10, cacheRead: 1.25 } },
  ],
  [
    /gpt-5/,
    {
      contextWindow: 400_000,
      maxOutput: 128_000,
      reasoning: true,
      prices: { input: 1.25, output: 10, cacheRead: 0.125 },
    },
  ],
  [
    /o4-mini/,
    {
      contextWindow: 200_000,
      maxOutput: 100_000,
      reasoning: true,
      prices: { input: 1.1, output: 4.4, cacheRead: 0.275 },
    },
  ],
  [
    /o3-mini/,
    {
      contextWindow: 200_000,
      maxOutput: 100_000,
      reasoning: true,
      prices: { input: 1.1, output: 4.4, cacheRead: 0.55 },
    },
  ],
  [
    /(^|\/)o3/,
    {
      contextWindow: 200_000,
      maxOutput: 100_000,
      reasoning: true,
      prices: { input: 2, output: 8, cacheRead: 0.5 },
    },
  ],
  [
    /deepseek-reasoner|deepseek-r1/,
    {
      contextWindow: 128_000,
      maxOutput: 64_000,
      reasoning: true,
      prices: { input: 0.56, output: 1.68, cacheRead: 0.07 },
    },
  ],
  [
    /deepseek-chat|deepseek-v3/,
    { contextWindow: 128_000, maxOutput: 8_192, prices: { input: 0.56, output: 1.68, cacheRead: 0.07 } },
  ],
  [/deepseek-coder/, { contextWindow: 64_000, maxOutput: 8_192 }],
  [/llama-?3\.[1-3]|llama3\.[1-3]/, { contextWindow: 128_000, maxOutput: 8_192 }],
  [/llama-?4/, { contextWindow: 128_000, maxOutput: 8_192 }],
  [/llama-?3|llama3/, { contextWindow: 8_192, maxOutput: 4_096 }],
  [/mistral-large/, { contextWindow: 128_000, maxOutput: 8_192, prices: { input: 2, output: 6 } }],
  [/codestral/, { contextWindow: 256_000, maxOutput: 8_192, prices: { input: 0.3, output: 0.9 } }],
  [/mistral-small|mistral-medium/, { contextWindow: 128_000, maxOutput: 8_192 }],
  [/qwen-?2\.5|qwen-?3/, { contextWindow: 128_000, maxOutput: 8_192 }],
  [/gpt-oss/, { contextWindow: 128_000, maxOutput: 32_768, reasoning: true }],
  [/claude/, { contextWindow: 200_000, maxOutput: 32_000 }],
  [/gemini/, { contextWindow: 1_048_576, maxOutput: 65_536 }],
];

export function modelInfo(modelId: string): ModelInfo {
  const id = modelId.toLowerCase();
  for (const [pattern, info] of MODEL_TABLE) if (pattern.test(id)) return info;
  return { contextWindow: DEFAULT_CONTEXT_WINDOW, maxOutput: DEFAULT_MAX_OUTPUT };
}
