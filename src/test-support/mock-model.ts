/**
 * For service tests that talk to a model: the e2e mock OpenAI-compatible server (one per test
 * file) and provider settings pointing at the mock.
 */
import { afterAll, beforeAll } from "vitest";
import { type MockServer, startMockServer } from "../../e2e/mock/server.ts";
import type { CutpointDb } from "../db/index.ts";
import {
  normalizeProviderSettings,
  saveProviderSettings,
  setApiKey,
} from "../services/agent/agent-settings.ts";

export interface MockModel {
  server: MockServer;
  /** The server's origin (what scripted replies and requests are keyed by). */
  origin: string;
}

/** Starts the mock server before the file's tests and closes it after; read its fields inside tests. */
export function mockModelPerFile(): MockModel {
  const mock = {} as MockModel;
  beforeAll(async () => {
    mock.server = await startMockServer({ port: 0 });
    mock.origin = `http://127.0.0.1:${mock.server.port}`;
  });
  afterAll(() => mock.server.close());
  return mock;
}

/** Provider settings for the mock ("custom" provider, `model`), and `key` as its API key unless null. */
export async function setMockProvider(
  db: CutpointDb,
  mock: MockModel,
  key: string | null,
  model = "mock-model",
): Promise<void> {
  await saveProviderSettings(
    db,
    normalizeProviderSettings({ providerId: "custom", baseUrl: mock.server.baseUrl, model }),
  );
  if (key !== null) await setApiKey(db, "custom", key);
}
