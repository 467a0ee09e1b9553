/** The provider endpoint's checks for Settings: list its models, test the connection (with the key saved for its address). */
import { listModels, testConnection } from "../../llm/connection.ts";
import { appKeys } from "../keys/keys-instance.ts";
import type { ProviderSettings } from "./agent-settings.ts";

/** GET {baseUrl}/models of the provider, with the key saved for its address. */
export async function listProviderModels(s: ProviderSettings) {
  const apiKey = await appKeys.refFor(s.baseUrl);
  return listModels({ baseUrl: s.baseUrl, apiKey, provider: s.providerId });
}

/** "Test connection": the listing, and whether the chosen model is in it; `withKey`: a key was sent. */
export async function testProviderConnection(s: ProviderSettings) {
  const apiKey = await appKeys.refFor(s.baseUrl);
  const result = await testConnection(
    { baseUrl: s.baseUrl, apiKey, provider: s.providerId },
    s.model ? { model: s.model } : {},
  );
  return { withKey: apiKey !== "", result };
}
