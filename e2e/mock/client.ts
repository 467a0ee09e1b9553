/**
 * Typed helpers for Playwright specs (and Node tests) to drive the mock server.
 * Each test should use its own API key: scripts and recorded requests are namespaced by it.
 */
import type { ModelsSpec, RecordedRequest, ReplySpec } from "./types.ts";

export type {
  ErrorPreset,
  ErrorSpec,
  ModelsSpec,
  RecordedRequest,
  ReplySpec,
  ToolCallSpec,
} from "./types.ts";

export const MOCK_ORIGIN = `http://127.0.0.1:${process.env.CUTPOINT_MOCK_PORT ?? 4010}`;
/** Base URL to type into the app's settings (OpenAI-compatible, with /v1). */
export const MOCK_BASE_URL = `${MOCK_ORIGIN}/v1`;

async function post(path: string, body: object, origin: string): Promise<unknown> {
  const res = await fetch(`${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`mock ${path}: HTTP ${res.status}`);
  return res.json();
}

/** Queues replies for the chat requests made with this API key, consumed in order. */
export async function scriptReplies(key: string, replies: ReplySpec[], origin = MOCK_ORIGIN): Promise<void> {
  await post("/__mock/script", { key, replies }, origin);
}

/** Sets the model list answered to this key, or makes it fail (`{error: {preset: "auth"}}`). */
export async function setModels(key: string, spec: ModelsSpec, origin = MOCK_ORIGIN): Promise<void> {
  await post("/__mock/models", { key, ...spec }, origin);
}

/** The requests the mock recorded for this key (method, path, headers, parsed body), oldest first. */
export async function getRequests(key: string, origin = MOCK_ORIGIN): Promise<RecordedRequest[]> {
  const res = await fetch(`${origin}/__mock/requests?key=${encodeURIComponent(key)}`);
  const json = (await res.json()) as { requests: RecordedRequest[] };
  return json.requests;
}

/** Only the chat completion requests of this key. */
export async function getChatRequests(key: string, origin = MOCK_ORIGIN): Promise<RecordedRequest[]> {
  return (await getRequests(key, origin)).filter((r) => r.path.endsWith("/chat/completions"));
}

/** Lets this key's oldest held reply (`holdAfterChunks`) stream on; one that holds later goes on at once. */
export async function releaseReply(key: string, origin = MOCK_ORIGIN): Promise<void> {
  await post("/__mock/release", { key }, origin);
}

export async function resetKey(key: string, origin = MOCK_ORIGIN): Promise<void> {
  await post("/__mock/reset", { key }, origin);
}

/** A fresh key per test: `uniqueKey(testInfo.title)`. */
export function uniqueKey(label = "test"): string {
  return `sk-mock-${label.replace(/[^a-z0-9]+/gi, "-").slice(0, 30)}-${Math.random().toString(36).slice(2, 10)}`;
}
