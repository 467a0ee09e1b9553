/**
 * The model adapter against the mock server: the request sent, streamed text, reasoning and tool calls,
 * errors without the key, retries, dropped and stalled streams, abort; error kinds, models, completions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRequests, scriptReplies, setModels } from "../../e2e/mock/client.ts";
import { type MockServer, startMockServer } from "../../e2e/mock/server.ts";
import { isContextOverflowError } from "../core/compaction/overflow.ts";
import type { ToolCall } from "../core/session/types.ts";
import { createCompleteFn } from "./complete.ts";
import { listModels, testConnection } from "./connection.ts";
import { classifyError } from "./errors.ts";
import { idlePeriod, type StreamAssistantParams, streamAssistant } from "./stream-assistant.ts";
import type { AssistantStreamEvent } from "./stream-mapper.ts";

let server: MockServer;
let origin: string;
beforeAll(async () => {
  server = await startMockServer({ port: 0 });
  origin = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.close());

let n = 0;
const newKey = () => `sk-test-secret-${++n}-${Math.random().toString(36).slice(2)}`;

function params(key: string, extra: Partial<StreamAssistantParams> = {}): StreamAssistantParams {
  return {
    baseUrl: server.baseUrl,
    apiKey: key,
    provider: "openai",
    model: "gpt-4o",
    systemPrompt: "You are a test.",
    messages: [{ role: "user", content: "hello", timestamp: 1 }],
    sleep: async () => {},
    now: () => 1000,
    ...extra,
  };
}

describe("streamAssistant against the mock server", () => {
  it("streams text, reasoning and usage, and sends the request the adapter promises", async () => {
    const key = newKey();
    await scriptReplies(
      key,
      [{ reasoning: ["r1"], text: ["Hi ", "there"], usage: { prompt_tokens: 10, completion_tokens: 3 } }],
      origin,
    );
    const events: AssistantStreamEvent[] = [];
    const m = await streamAssistant(
      params(key, {
        maxTokens: 500,
        reasoningEffort: "low",
        tools: [{ name: "ls", description: "d", parameters: { type: "object" } }],
        onEvent: (e) => events.push(e),
      }),
    );
    expect(m.content).toEqual([
      { type: "thinking", thinking: "r1" },
      { type: "text", text: "Hi there" },
    ]);
    expect(m.stopReason).toBe("stop");
    expect(m.usage).toMatchObject({ input: 10, output: 3, totalTokens: 13 });
    expect(m.provider).toBe("openai");
    expect(events.at(-1)?.type).toBe("done");
    const [req] = await getRequests(key, origin);
    expect(req?.headers.authorization).toBe(`Bearer ${key}`);
    expect(req?.body).toMatchObject({
      model: "gpt-4o",
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 500,
      reasoning_effort: "low",
      messages: [
        { role: "system", content: "You are a test." },
        { role: "user", content: "hello" },
      ],
      tools: [{ type: "function", function: { name: "ls" } }],
    });
  });

  it("uses max_tokens for other providers and omits reasoning_effort when off", async () => {
    const key = newKey();
    await streamAssistant(params(key, { provider: "groq", maxTokens: 99, reasoningEffort: "off" }));
    const body = (await getRequests(key, origin))[0]?.body as Record<string, unknown>;
    expect(body.max_tokens).toBe(99);
    expect(body).not.toHaveProperty("max_completion_tokens");
    expect(body).not.toHaveProperty("reasoning_effort");
  });

  it("returns tool calls with parsed arguments and stopReason toolUse", async () => {
    const key = newKey();
    await scriptReplies(
      key,
      [
        {
          toolCalls: [
            { name: "read", arguments: { path: "src/a.ts", offset: 3 } },
            { name: "ls", arguments: {} },
          ],
        },
      ],
      origin,
    );
    const m = await streamAssistant(params(key));
    expect(m.stopReason).toBe("toolUse");
    const calls = m.content.filter((b): b is ToolCall => b.type === "toolCall");
    expect(calls.map((c) => [c.name, c.arguments])).toEqual([
      ["read", { path: "src/a.ts", offset: 3 }],
      ["ls", {}],
    ]);
  });

  it.each([
    ["auth", /API key was rejected \(401/],
    ["model-access", /no access to model "gpt-4o" \(403/],
    ["not-found", /Not found \(404.*base URL/],
  ] as const)("maps %s to a clear error without retrying and without the key", async (preset, pattern) => {
    const key = newKey();
    await scriptReplies(key, [{ error: { preset } }], origin);
    const events: AssistantStreamEvent[] = [];
    const m = await streamAssistant(params(key, { onEvent: (e) => events.push(e) }));
    expect(m.stopReason).toBe("error");
    expect(m.errorMessage).toMatch(pattern);
    expect(m.errorMessage).not.toContain(key);
    expect(events.some((e) => e.type === "retry")).toBe(false);
    expect(await getRequests(key, origin)).toHaveLength(1);
  });

  it("redacts the key when a provider echoes it in an error", async () => {
    const key = newKey();
    await scriptReplies(
      key,
      [{ error: { status: 401, body: { error: { message: `Invalid key ${key} given` } } } }],
      origin,
    );
    const m = await streamAssistant(params(key));
    expect(m.errorMessage).toContain("Invalid key [redacted key] given");
    expect(m.errorMessage).not.toContain(key);
  });

  it.each(["context-openai", "context-anthropic", "context-llamacpp", "context-lmstudio"] as const)(
    "keeps the provider's overflow wording (%s) so overflow detection works",
    async (preset) => {
      const key = newKey();
      await scriptReplies(key, [{ error: { preset } }], origin);
      const m = await streamAssistant(params(key));
      expect(m.stopReason).toBe("error");
      // Plain words first, the provider's own words after them.
      expect(m.errorMessage).toMatch(
        /^The conversation is too long for this model's context window\. Provider's words: 400 /,
      );
      expect(isContextOverflowError(m.errorMessage)).toBe(true);
      expect(await getRequests(key, origin)).toHaveLength(1);
    },
  );

  it("retries 429 (honouring Retry-After) and 500 before the first token, then succeeds", async () => {
    const key = newKey();
    await scriptReplies(
      key,
      [{ error: { preset: "rate-limit", retryAfter: 2 } }, { error: { preset: "server" } }, { text: "ok" }],
      origin,
    );
    const events: AssistantStreamEvent[] = [];
    const slept: number[] = [];
    const m = await streamAssistant(
      params(key, {
        onEvent: (e) => events.push(e),
        sleep: async (ms) => void slept.push(ms),
        random: () => 0.5,
      }),
    );
    expect(m.stopReason).toBe("stop");
    expect(m.content).toEqual([{ type: "text", text: "ok" }]);
    expect(events.filter((e) => e.type === "retry")).toEqual([
      { type: "retry", attempt: 1, delayMs: 2000, reason: "rate limited (429)" },
      { type: "retry", attempt: 2, delayMs: 2000, reason: "server error (500)" },
    ]);
    expect(slept).toEqual([2000, 2000]);
  });

  it("gives up after 3 retries with the rate-limit message", async () => {
    const key = newKey();
    const rl = { error: { preset: "rate-limit" as const, retryAfter: 0 } };
    await scriptReplies(key, [rl, rl, rl, rl, { text: "never" }], origin);
    const m = await streamAssistant(params(key));
    expect(m.stopReason).toBe("error");
    expect(m.errorMessage).toMatch(/Rate limited/);
    expect(await getRequests(key, origin)).toHaveLength(4);
  });

  it("a stream dropped after content keeps the partial text and is not retried", async () => {
    const key = newKey();
    await scriptReplies(
      key,
      [{ text: ["one ", "two ", "three"], cutAfterChunks: 3 }, { text: "again" }],
      origin,
    );
    const m = await streamAssistant(params(key));
    expect(m.stopReason).toBe("error");
    expect(m.content).toEqual([{ type: "text", text: "one two " }]);
    expect(m.errorMessage).toMatch(/connection dropped/);
    expect(await getRequests(key, origin)).toHaveLength(1);
  });

  it("an error event inside the stream ends the reply as an error, keeping the text", async () => {
    const key = newKey();
    await scriptReplies(
      key,
      [{ text: ["x", "y", "z"], streamError: { afterChunks: 2, message: "Upstream overloaded" } }],
      origin,
    );
    const m = await streamAssistant(params(key));
    expect(m.stopReason).toBe("error");
    expect(m.content).toEqual([{ type: "text", text: "x" }]);
    expect(m.errorMessage).toMatch(/Upstream overloaded/);
  });

  it("stops a stalled endpoint with the idle watchdog (an error, not an abort)", async () => {
    const key = newKey();
    await scriptReplies(
      key,
      [
        { text: ["a", "b"], delayMs: 20 },
        { text: ["slow"], delayMs: 20 },
      ],
      origin,
    );
    // first reply is fine with a generous watchdog
    expect((await streamAssistant(params(key, { idleTimeoutMs: 2000 }))).stopReason).toBe("stop");
    const stalledKey = newKey();
    const stall = { text: ["x"], delayMs: 400 };
    await scriptReplies(stalledKey, [stall, stall, stall, stall], origin);
    const events: AssistantStreamEvent[] = [];
    const m = await streamAssistant(
      params(stalledKey, { idleTimeoutMs: 150, onEvent: (e) => events.push(e) }),
    );
    expect(m.stopReason).toBe("error");
    expect(m.errorMessage).toMatch(/No data from .* for 150 ms; the request was stopped\.$/);
    // nothing had streamed, so it was retried like a network failure
    expect(events.filter((e) => e.type === "retry")).toHaveLength(3);
  });

  it("says the idle period in a unit that reads (no 0 s for under a second)", () => {
    expect([150, 999, 1000, 1499, 45_000, 90_000, 5 * 60_000].map(idlePeriod)).toEqual([
      "150 ms",
      "999 ms",
      "1 s",
      "1 s",
      "45 s",
      "90 s",
      "5 min",
    ]);
  });

  it("a stream dropped before any token is retried", async () => {
    const key = newKey();
    await scriptReplies(key, [{ text: "x", cutAfterChunks: 1 }, { text: "fine" }], origin);
    const m = await streamAssistant(params(key));
    expect(m.content).toEqual([{ type: "text", text: "fine" }]);
  });

  it("abort mid-stream keeps what streamed with stopReason aborted", async () => {
    const key = newKey();
    await scriptReplies(key, [{ text: ["a", "b", "c", "d", "e", "f"], delayMs: 60 }], origin);
    const ctrl = new AbortController();
    const m = await streamAssistant(
      params(key, {
        signal: ctrl.signal,
        onEvent: (e) => {
          if (e.type === "text_delta" && e.message.content.length > 0) ctrl.abort();
        },
      }),
    );
    expect(m.stopReason).toBe("aborted");
    expect(m.content).toEqual([{ type: "text", text: "a" }]);
  });

  it("an unreachable endpoint explains CORS / network after retrying", async () => {
    const events: AssistantStreamEvent[] = [];
    const m = await streamAssistant(
      params("k", { baseUrl: "http://127.0.0.1:9/v1", provider: "ollama", onEvent: (e) => events.push(e) }),
    );
    expect(m.stopReason).toBe("error");
    expect(m.errorMessage).toMatch(/Could not reach http:\/\/127\.0\.0\.1:9\/v1/);
    expect(m.errorMessage).toMatch(/OLLAMA_ORIGINS/);
    expect(m.errorMessage).toMatch(/local network/);
    expect(events.filter((e) => e.type === "retry")).toHaveLength(3);
  });
});

describe("classifyError", () => {
  const ctx = { baseUrl: "http://192.168.1.5:11434/v1", model: "m" };
  it("detects mixed content from an https page", () => {
    const e = classifyError(new TypeError("Failed to fetch"), { ...ctx, pageProtocol: "https:" });
    expect(e.kind).toBe("mixed-content");
    expect(
      classifyError(new TypeError("Failed to fetch"), {
        ...ctx,
        baseUrl: "http://localhost:1/v1",
        pageProtocol: "https:",
      }).kind,
    ).toBe("cors-or-network");
  });
  it("separates quota from rate limit, and 400 (no body) as overflow", () => {
    expect(
      classifyError({ status: 429, error: { message: "You exceeded your current quota" } }, ctx).kind,
    ).toBe("quota");
    expect(classifyError({ status: 429, message: "429 Rate limit reached" }, ctx).kind).toBe("rate-limit");
    expect(classifyError({ status: 413, message: "413 status code (no body)" }, ctx).kind).toBe(
      "context-overflow",
    );
    expect(classifyError({ status: 400, error: { message: "bad tool schema" } }, ctx).kind).toBe(
      "bad-request",
    );
  });
});

describe("listModels / testConnection / createCompleteFn", () => {
  it("lists models sorted, and reports failures as values", async () => {
    const key = newKey();
    await setModels(key, { models: ["b", "a"] }, origin);
    expect(await listModels({ baseUrl: server.baseUrl, apiKey: key })).toEqual({
      ok: true,
      models: ["a", "b"],
    });
    const bad = newKey();
    await setModels(bad, { error: { preset: "auth" } }, origin);
    const r = await testConnection({ baseUrl: server.baseUrl, apiKey: bad });
    expect(r).toMatchObject({ ok: false, kind: "auth" });
    expect(await testConnection({ baseUrl: server.baseUrl, apiKey: key }, { model: "c" })).toEqual({
      ok: true,
      models: ["a", "b"],
      modelFound: false,
    });
    expect(await testConnection({ baseUrl: "http://127.0.0.1:9/v1", apiKey: key })).toMatchObject({
      ok: false,
      kind: "cors-or-network",
    });
    expect(await testConnection({ baseUrl: "ftp://x", apiKey: key })).toMatchObject({
      ok: false,
      kind: "invalid-url",
    });
  });

  it("createCompleteFn streams deltas, sends the thinking level, and returns text, errors and aborts as values", async () => {
    const key = newKey();
    await scriptReplies(
      key,
      [{ text: ["## Goal", "\nship"] }, { error: { preset: "auth" } }, { text: "reasoned" }],
      origin,
    );
    const complete = createCompleteFn({
      baseUrl: server.baseUrl,
      apiKey: key,
      provider: "openai",
      model: "gpt-4o",
    });
    const deltas: string[] = [];
    const ok = await complete({
      systemPrompt: "S",
      userMessage: "U",
      maxTokens: 100,
      signal: new AbortController().signal,
      onDelta: (d) => deltas.push(d),
    });
    expect(ok).toMatchObject({ ok: true, text: "## Goal\nship" });
    expect(deltas).toEqual(["## Goal", "\nship"]);
    const body = (await getRequests(key, origin))[0]?.body as { messages: unknown[] };
    expect(body.messages).toEqual([
      { role: "system", content: "S" },
      { role: "user", content: "U" },
    ]);
    // The second scripted reply: a rejected key comes back as a value, without the key.
    const failed = await complete({
      systemPrompt: "S",
      userMessage: "U",
      maxTokens: 100,
      signal: new AbortController().signal,
    });
    expect(failed).toMatchObject({ ok: false, aborted: false });
    expect(failed.ok === false && failed.error).toMatch(/API key was rejected \(401/);
    expect(JSON.stringify(failed)).not.toContain(key);
    // The third: a request's thinking level is sent as reasoning_effort.
    const reasoned = await complete({
      systemPrompt: "S",
      userMessage: "U",
      maxTokens: 100,
      thinkingLevel: "high",
      signal: new AbortController().signal,
    });
    expect(reasoned).toMatchObject({ ok: true, text: "reasoned" });
    const requests = await getRequests(key, origin);
    expect(requests).toHaveLength(3);
    expect(requests[0]?.body).not.toHaveProperty("reasoning_effort");
    expect(requests[2]?.body).toMatchObject({ reasoning_effort: "high" });
    const ctrl = new AbortController();
    ctrl.abort();
    expect(
      await complete({ systemPrompt: "S", userMessage: "U", maxTokens: 1, signal: ctrl.signal }),
    ).toEqual({
      ok: false,
      error: "Stopped.",
      aborted: true,
    });
    // An aborted call sends nothing.
    expect(await getRequests(key, origin)).toHaveLength(3);
  });
});
