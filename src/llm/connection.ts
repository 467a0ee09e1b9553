/**
 * Endpoint checks for the settings screen: list models and test a connection.
 * Both return values, never throw; the key never leaves the Authorization header, which only
 * goes where key-guard.ts allows.
 */
import { classifyError, type LlmErrorKind } from "./errors.ts";
import { loadOpenAi, openClient, redactKey } from "./key-guard.ts";
import { browserOffline, type EndpointConfig } from "./stream-assistant.ts";

export type ListModelsResult =
  | { ok: true; models: string[] }
  | { ok: false; kind: LlmErrorKind; error: string };

export type TestConnectionResult =
  | { ok: true; models: string[]; modelFound: boolean | null }
  | { ok: false; kind: LlmErrorKind; message: string };

const pageProtocol = (): string | undefined =>
  (globalThis as { location?: { protocol?: string } }).location?.protocol;

interface CheckOptions {
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** Optional model to look for in the list (and to name in error messages). */
  model?: string;
}

/** GET {baseUrl}/models, sorted ids. */
export async function listModels(
  config: Omit<EndpointConfig, "provider"> & { provider?: string },
  options: CheckOptions = {},
): Promise<ListModelsResult> {
  const { APIUserAbortError } = await loadOpenAi();
  const opened = await openClient(config, options.fetch);
  if (!opened.ok) return { ok: false, kind: "auth", error: opened.message };
  const { client, secret } = opened;
  try {
    const ids: string[] = [];
    for await (const model of client.models.list({ signal: options.signal })) ids.push(model.id);
    ids.sort((a, b) => a.localeCompare(b));
    return { ok: true, models: ids };
  } catch (thrown) {
    const e = classifyError(
      thrown,
      {
        baseUrl: config.baseUrl,
        model: options.model ?? "",
        provider: config.provider,
        pageProtocol: pageProtocol(),
        offline: browserOffline(),
      },
      options.signal?.aborted === true || thrown instanceof APIUserAbortError,
    );
    return { ok: false, kind: e.kind, error: redactKey(e.message, secret) };
  }
}

/**
 * Tests an endpoint with the model list (no tokens spent). `modelFound` says whether the chosen
 * model is listed (null when no model was given or the list is empty: some servers list nothing).
 */
export async function testConnection(
  config: Omit<EndpointConfig, "provider"> & { provider?: string },
  options: CheckOptions = {},
): Promise<TestConnectionResult> {
  if (!/^https?:\/\//i.test(config.baseUrl)) {
    return {
      ok: false,
      kind: "invalid-url",
      message: `"${config.baseUrl}" is not an http(s) URL. Enter the endpoint's base URL, e.g. https://api.openai.com/v1.`,
    };
  }
  const listed = await listModels(config, options);
  if (!listed.ok) return { ok: false, kind: listed.kind, message: listed.error };
  const modelFound = options.model && listed.models.length > 0 ? listed.models.includes(options.model) : null;
  return { ok: true, models: listed.models, modelFound };
}
