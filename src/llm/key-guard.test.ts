/**
 * The key guard against two mock servers: a saved key goes only to its bound origins (runs, summaries,
 * model lists, connection tests), no key means no Authorization header, errors never show the key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRequests, setModels } from "../../e2e/mock/client.ts";
import { type MockServer, startMockServer } from "../../e2e/mock/server.ts";
import { createCompleteFn } from "./complete.ts";
import { listModels, testConnection } from "./connection.ts";
import {
  endpointOrigin,
  installKeyLookup,
  keyForRequest,
  keyRef,
  openClient,
  redactKey,
  revealKey,
  type StoredKey,
} from "./key-guard.ts";
import { streamAssistant } from "./stream-assistant.ts";

let a: MockServer;
let b: MockServer;
const originOf = (s: MockServer) => `http://127.0.0.1:${s.port}`;
beforeAll(async () => {
  [a, b] = await Promise.all([startMockServer({ port: 0 }), startMockServer({ port: 0 })]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

/** A tiny key store: id -> secret and origins. */
const store = new Map<string, { secret: string; origins: string[] }>();
installKeyLookup(async (id): Promise<StoredKey | undefined> => {
  const k = store.get(id);
  return k && { origins: k.origins, unlock: async () => ({ ok: true, secret: k.secret }) };
});
let n = 0;
function saved(origins: string[]): { ref: string; secret: string } {
  const id = `k${++n}`;
  const secret = `sk-guard-${n}-${Math.random().toString(36).slice(2)}`;
  store.set(id, { secret, origins });
  return { ref: keyRef(id), secret };
}

const ask = (baseUrl: string, apiKey: string) =>
  streamAssistant({
    baseUrl,
    apiKey,
    provider: "custom",
    model: "m",
    systemPrompt: "s",
    messages: [{ role: "user", content: "hi", timestamp: 1 }],
    sleep: async () => {},
  });

describe("key guard: a saved key goes only to the origin it is bound to", () => {
  it("endpointOrigin is scheme://host:port (default ports dropped); non-http is null", () => {
    expect(endpointOrigin("https://API.openai.com:443/v1")).toBe("https://api.openai.com");
    expect(endpointOrigin("http://127.0.0.1:4010/v1/")).toBe("http://127.0.0.1:4010");
    expect(endpointOrigin("http://127.0.0.2:4010/v1")).not.toBe(endpointOrigin("http://127.0.0.1:4010/v1"));
    expect(endpointOrigin("ftp://x")).toBeNull();
    expect(endpointOrigin("")).toBeNull();
  });

  it("agent run, summary, model list and connection test to another origin: nothing sent there", async () => {
    const { ref, secret } = saved([originOf(a)]);
    await setModels(secret, { models: ["x"] }, originOf(a));
    const refusedRun = await ask(b.baseUrl, ref);
    expect(refusedRun.stopReason).toBe("error");
    expect(refusedRun.errorMessage).toContain(`not sent to ${originOf(b)}`);
    expect(refusedRun.errorMessage).toContain(`Use my saved key for ${originOf(b)}`);
    const summary = await createCompleteFn({
      baseUrl: b.baseUrl,
      apiKey: ref,
      provider: "custom",
      model: "m",
    })({
      systemPrompt: "s",
      userMessage: "u",
      maxTokens: 10,
      signal: new AbortController().signal,
    });
    expect(summary.ok).toBe(false);
    expect(await listModels({ baseUrl: b.baseUrl, apiKey: ref })).toMatchObject({ ok: false, kind: "auth" });
    expect(await testConnection({ baseUrl: b.baseUrl, apiKey: ref })).toMatchObject({ ok: false });
    // b never saw a request: neither with the key nor without one.
    expect(await getRequests(secret, originOf(b))).toEqual([]);
    expect(await getRequests("", originOf(b))).toEqual([]);
    for (const text of [refusedRun.errorMessage, JSON.stringify(summary)]) expect(text).not.toContain(secret);

    // The bound origin gets it, in the Authorization header only.
    expect(await listModels({ baseUrl: a.baseUrl, apiKey: ref })).toEqual({ ok: true, models: ["x"] });
    const run = await ask(a.baseUrl, ref);
    expect(run.stopReason).toBe("stop");
    const reqs = await getRequests(secret, originOf(a));
    expect(reqs.map((r) => r.path)).toEqual(["/v1/models", "/v1/chat/completions"]);
    for (const r of reqs) {
      expect(r.headers.authorization).toBe(`Bearer ${secret}`);
      expect(r.path).not.toContain(secret);
    }
  });

  it("a key bound to several origins goes to each; a removed key goes nowhere", async () => {
    const { ref, secret } = saved([originOf(a), originOf(b)]);
    expect(await keyForRequest(ref, a.baseUrl)).toEqual({ ok: true, secret });
    expect(await keyForRequest(ref, `${originOf(b)}/other/v1`)).toEqual({ ok: true, secret });
    // Each bound origin really receives it ...
    for (const server of [a, b]) {
      expect((await ask(server.baseUrl, ref)).stopReason).toBe("stop");
      const [req] = await getRequests(secret, originOf(server));
      expect(req?.headers.authorization).toBe(`Bearer ${secret}`);
    }
    // ... and an origin outside the list does not (another port of the same host).
    const foreign = "http://127.0.0.1:9/v1";
    expect(await keyForRequest(ref, foreign)).toMatchObject({ ok: false });
    store.delete(ref.split(":").pop()!);
    for (const url of [a.baseUrl, b.baseUrl])
      expect(await keyForRequest(ref, url)).toMatchObject({ ok: false });
  });

  it("a revealed secret, passed on as a plain key, is still refused for another origin", async () => {
    const { ref, secret } = saved([originOf(a)]);
    expect(await revealKey(ref)).toEqual({ ok: true, secret });
    expect(await keyForRequest(secret, b.baseUrl)).toMatchObject({ ok: false });
    expect(await keyForRequest(secret, a.baseUrl)).toEqual({ ok: true, secret });
  });

  it("no key: the request carries no Authorization header at all", async () => {
    const opened = await openClient({ baseUrl: b.baseUrl, apiKey: "" });
    expect(opened.ok).toBe(true);
    expect(await listModels({ baseUrl: b.baseUrl, apiKey: "" })).toMatchObject({ ok: true });
    const [req] = await getRequests("", originOf(b));
    expect(req?.path).toBe("/v1/models");
    expect(req?.headers.authorization).toBeUndefined();
  });

  it("errors never carry the key, nor the masked echo a provider puts in a 401", async () => {
    const { ref, secret } = saved(["http://127.0.0.1:9"]);
    const echo = async () =>
      new Response(
        JSON.stringify({
          error: {
            message: `Incorrect API key provided: ${secret.slice(0, 6)}*****${secret.slice(-4)}. Yours: ${secret}`,
            type: "invalid_request_error",
            code: "invalid_api_key",
          },
        }),
        { status: 401, headers: { "content-type": "application/json" } },
      );
    const listed = await listModels({ baseUrl: "http://127.0.0.1:9/v1", apiKey: ref }, { fetch: echo });
    expect(listed.ok).toBe(false);
    const text = JSON.stringify(listed);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice(-4));
    expect(text).toContain("[redacted key]");
    const run = await streamAssistant({
      baseUrl: "http://127.0.0.1:9/v1",
      apiKey: ref,
      provider: "custom",
      model: "m",
      systemPrompt: "s",
      messages: [{ role: "user", content: "hi", timestamp: 1 }],
      fetch: echo,
    });
    expect(run.errorMessage).toContain("401");
    expect(JSON.stringify(run)).not.toContain(secret);
    expect(redactKey("a *** b", null)).toBe("a *** b");
  });
});
