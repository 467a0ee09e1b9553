/**
 * The summarizer's endpoint: the provider set up in Settings (agent-settings), its API key, and
 * the model (the preview's choice, else the compaction setting, else the session's model).
 * Returns why it cannot summarize instead of throwing (no provider, no key, no model).
 */
import type { SessionEntry } from "../../core/session/types.ts";
import type { CutpointDb } from "../../db/schema.ts";
import { providerPreset } from "../../llm/providers.ts";
import {
  getApiKey,
  loadProviderSettings,
  modelLimits,
  type ProviderSettings,
} from "../agent/agent-settings.ts";
import type { SummarizerEndpoint } from "./compaction-runner.ts";
import { type CompactionUserSettings, loadCompactionSettings } from "./compaction-settings.ts";

export type EndpointResult =
  | { ok: true; endpoint: SummarizerEndpoint; maxOutput: number }
  | { ok: false; reason: string };

/** The latest model on the path (a model_change entry or an assistant message's model). */
export function modelOnPath(
  path: readonly SessionEntry[],
): { provider: string; modelId: string } | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const e = path[i]! as Record<string, unknown>;
    if (e.type === "model_change" && typeof e.modelId === "string")
      return { provider: String(e.provider ?? ""), modelId: e.modelId };
    if (e.type === "message") {
      const m = e.message as Record<string, unknown> | undefined;
      if (m?.role === "assistant" && typeof m.model === "string")
        return { provider: String(m.provider ?? ""), modelId: m.model };
    }
  }
  return undefined;
}

/**
 * The model that writes the summary (the one request and cost estimate use): the review's choice,
 * else the compaction setting, else the session's model when it is on the set-up provider, else
 * the provider's model. "" when there is none.
 */
export function chooseSummarizerModel(
  provider: Pick<ProviderSettings, "providerId" | "model">,
  compaction: Pick<CompactionUserSettings, "summarizerModel">,
  path: readonly SessionEntry[],
  modelOverride?: string | null,
): string {
  const onPath = modelOnPath(path);
  const sessionModel = onPath && onPath.provider === provider.providerId ? onPath.modelId : "";
  return (modelOverride ?? "").trim() || compaction.summarizerModel || sessionModel || provider.model;
}

export async function resolveSummarizer(
  db: CutpointDb,
  path: readonly SessionEntry[],
  modelOverride?: string | null,
): Promise<EndpointResult> {
  const [provider, compaction] = await Promise.all([loadProviderSettings(db), loadCompactionSettings(db)]);
  if (!/^https?:\/\//i.test(provider.baseUrl))
    return { ok: false, reason: "No provider is set up (Settings ⚙): use the offline summary, or add one." };
  const preset = providerPreset(provider.providerId);
  const apiKey = await getApiKey(db, provider.providerId);
  if (preset.needsKey && apiKey === "")
    return {
      ok: false,
      reason: `No API key for ${preset.label}: use the offline summary, or add a key in Settings (⚙).`,
    };
  const model = chooseSummarizerModel(provider, compaction, path, modelOverride);
  if (model === "")
    return { ok: false, reason: "No summarizer model: choose one, or use the offline summary." };
  return {
    ok: true,
    endpoint: { baseUrl: provider.baseUrl, apiKey, provider: provider.providerId, model },
    maxOutput: modelLimits(provider, model).maxOutput,
  };
}
