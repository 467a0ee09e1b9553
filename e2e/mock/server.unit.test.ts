/**
 * The mock OpenAI-compatible server: CORS, the exact SSE format, echo and recorded requests, error presets,
 * stream variants, cut streams, model lists, and the real openai SDK driving it.
 */
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRequests, releaseReply, scriptReplies, setModels } from "./client.ts";
import { type MockServer, startMockServer } from "./server.ts";

let server: MockServer;
let origin: string;

beforeAll(async () => {
  server = await startMockServer({ port: 0 });
  origin = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.close());

const chat = (key: string, body: object) =>
  fetch(`${origin}/v1/chat/completions`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      origin: "http://app.test",
    },
    body: JSON.stringify(body),
  });

function dataLines(raw: string): string[] {
  return raw
    .split("\n\n")
    .filter((b) => b.trim() !== "")
    .map((b) => {
      expect(b.startsWith("data: ")).toBe(true);
      return b.slice(6);
    });
}

describe("mock server", () => {
  it("answers health and CORS preflight echoing the requested headers", async () => {
    expect((await fetch(`${origin}/__mock/health`)).status).toBe(200);
    const res = await fetch(`${origin}/v1/chat/completions`, {
      method: "OPTIONS",
      headers: {
        origin: "http://app.test",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type,x-stainless-os",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toBe("authorization,content-type,x-stainless-os");
    expect(res.headers.get("access-control-allow-origin")).toBe("http://app.test");
  });

  it("streams the exact SSE wire format with text, reasoning, split tool calls and usage", async () => {
    const key = "k-sse";
    await scriptReplies(
      key,
      [
        {
          reasoning: ["think ", "more"],
          text: ["Hel", "lo"],
          toolCalls: [{ name: "read", arguments: { path: "a.txt" } }],
          usage: { prompt_tokens: 100, completion_tokens: 20, cached_tokens: 40 },
        },
      ],
      origin,
    );
    const res = await chat(key, {
      model: "m",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "hi" }],
    });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("access-control-allow-origin")).toBe("http://app.test");
    const raw = await res.text();
    expect(raw.endsWith("data: [DONE]\n\n")).toBe(true);
    const objs = dataLines(raw)
      .slice(0, -1)
      .map((l) => JSON.parse(l));
    expect(objs.every((o) => o.object === "chat.completion.chunk")).toBe(true);
    const deltas = objs.flatMap((o) => o.choices.map((c: { delta: object }) => c.delta));
    expect(deltas.map((d) => d.reasoning_content ?? "").join("")).toBe("think more");
    expect(deltas.map((d) => d.content ?? "").join("")).toBe("Hello");
    const toolParts = deltas.flatMap((d) => d.tool_calls ?? []);
    expect(toolParts[0]).toMatchObject({ index: 0, id: "call_1", function: { name: "read" } });
    expect(toolParts.length).toBeGreaterThan(2);
    expect(toolParts.map((p) => p.function.arguments).join("")).toBe('{"path":"a.txt"}');
    const finish = objs.flatMap((o) => o.choices.map((c: { finish_reason: string }) => c.finish_reason));
    expect(finish.filter(Boolean)).toEqual(["tool_calls"]);
    const last = objs.at(-1);
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual({
      prompt_tokens: 100,
      completion_tokens: 20,
      total_tokens: 120,
      prompt_tokens_details: { cached_tokens: 40 },
    });
  });

  it("echoes the last user message when the queue is empty, and records requests per key", async () => {
    const res = await chat("k-echo", { model: "m", messages: [{ role: "user", content: "ping" }] });
    const json = await res.json();
    expect(json.choices[0].message.content).toBe("Echo: ping");
    expect(json.choices[0].finish_reason).toBe("stop");
    const recorded = await getRequests("k-echo", origin);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.body).toMatchObject({ model: "m" });
    expect(recorded[0]?.headers.authorization).toBe("Bearer k-echo");
    expect(await getRequests("k-other", origin)).toEqual([]);
  });

  it("renders error presets with status, body and Retry-After", async () => {
    const key = "k-err";
    await scriptReplies(
      key,
      [
        { error: { preset: "rate-limit", retryAfter: 7 } },
        { error: { preset: "context-anthropic" } },
        { error: { status: 418, body: "teapot" } },
      ],
      origin,
    );
    const r1 = await chat(key, { model: "m", messages: [] });
    expect(r1.status).toBe(429);
    expect(r1.headers.get("retry-after")).toBe("7");
    const r2 = await chat(key, { model: "m", messages: [] });
    expect(r2.status).toBe(400);
    expect(JSON.stringify(await r2.json())).toContain("prompt is too long");
    const r3 = await chat(key, { model: "m", messages: [] });
    expect(r3.status).toBe(418);
    expect(await r3.text()).toBe("teapot");
  });

  it("sends `delta.reasoning` when asked, delays chunks, and can end with an in-stream error event", async () => {
    const key = "k-variants";
    await scriptReplies(
      key,
      [
        { reasoning: ["r"], reasoningField: "reasoning", text: "t", delayMs: 40 },
        { text: ["a", "b"], streamError: { afterChunks: 2, message: "overloaded" } },
      ],
      origin,
    );
    const t0 = Date.now();
    const raw = await (await chat(key, { model: "m", stream: true, messages: [] })).text();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(4 * 40 - 10);
    expect(raw).toContain('"reasoning":"r"');
    expect(raw).not.toContain("reasoning_content");
    const withError = await (await chat(key, { model: "m", stream: true, messages: [] })).text();
    const lines = dataLines(withError);
    expect(JSON.parse(lines.at(-1) ?? "{}")).toEqual({
      error: { message: "overloaded", type: "server_error", code: null },
    });
    expect(withError).not.toContain("[DONE]");
  });

  it("answers non-streamed tool calls with content null and finish_reason tool_calls", async () => {
    const key = "k-nonstream-tools";
    await scriptReplies(
      key,
      [{ toolCalls: [{ name: "grep", arguments: '{"pattern":"x"}', id: "c9" }] }],
      origin,
    );
    const json = await (await chat(key, { model: "m", messages: [{ role: "user", content: "q" }] })).json();
    expect(json.choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c9", type: "function", function: { name: "grep", arguments: '{"pattern":"x"}' } },
        ],
      },
    });
    expect(json.usage.total_tokens).toBe(json.usage.prompt_tokens + json.usage.completion_tokens);
  });

  it("cuts a stream after N chunks", async () => {
    const key = "k-cut";
    await scriptReplies(key, [{ text: ["a", "b", "c", "d"], cutAfterChunks: 2 }], origin);
    const res = await chat(key, { model: "m", stream: true, messages: [] });
    await expect(res.text()).rejects.toThrow();
  });

  it("holds a stream after N chunks until the key's reply is released, and a release may come first", async () => {
    const key = "k-hold";
    await scriptReplies(key, [{ text: ["a", "b", "c"], holdAfterChunks: 2 }], origin);
    const res = await chat(key, { model: "m", stream: true, messages: [] });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let raw = "";
    while ((raw.match(/^data: /gm) ?? []).length < 2) raw += decoder.decode((await reader.read()).value);
    // Held: nothing more arrives until the release.
    const more = reader.read();
    const early = await Promise.race([
      more.then(() => "chunk"),
      new Promise((r) => setTimeout(() => r("held"), 200)),
    ]);
    expect(early).toBe("held");
    await releaseReply(key, origin);
    raw += decoder.decode((await more).value);
    for (let r = await reader.read(); !r.done; r = await reader.read()) raw += decoder.decode(r.value);
    const texts = dataLines(raw)
      .filter((d) => d !== "[DONE]")
      .map((d) => JSON.parse(d).choices?.[0]?.delta?.content ?? "")
      .join("");
    expect(texts).toBe("abc");
    expect(raw.trimEnd().endsWith("data: [DONE]")).toBe(true);

    // Released before it holds: it streams straight through.
    await releaseReply(key, origin);
    await scriptReplies(key, [{ text: ["x", "y"], holdAfterChunks: 1 }], origin);
    const through = await (await chat(key, { model: "m", stream: true, messages: [] })).text();
    expect(through).toContain("data: [DONE]");
  });

  it("serves a per-key model list or failure", async () => {
    await setModels("k-models", { models: ["x", "y"] }, origin);
    await setModels("k-models-bad", { error: { preset: "auth" } }, origin);
    const ok = await fetch(`${origin}/models`, { headers: { authorization: "Bearer k-models" } });
    expect((await ok.json()).data.map((m: { id: string }) => m.id)).toEqual(["x", "y"]);
    const bad = await fetch(`${origin}/v1/models`, { headers: { authorization: "Bearer k-models-bad" } });
    expect(bad.status).toBe(401);
  });

  it("is driven by the real openai SDK (streaming with tool calls, non-streaming, errors)", async () => {
    const key = "k-sdk";
    const client = new OpenAI({ apiKey: key, baseURL: server.baseUrl, maxRetries: 0 });
    await scriptReplies(
      key,
      [
        { text: ["one ", "two"], toolCalls: [{ name: "ls", arguments: { path: "." } }], delayMs: 5 },
        { text: "summary" },
        { error: { preset: "auth" } },
      ],
      origin,
    );
    const stream = await client.chat.completions.create({
      model: "mock-model",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "go" }],
    });
    let text = "";
    let args = "";
    let usage: unknown;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      text += delta?.content ?? "";
      args += delta?.tool_calls?.map((t) => t.function?.arguments ?? "").join("") ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("one two");
    expect(JSON.parse(args)).toEqual({ path: "." });
    expect(usage).toMatchObject({ prompt_tokens: expect.any(Number) });

    const done = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "s" }],
    });
    expect(done.choices[0]?.message.content).toBe("summary");

    await expect(client.chat.completions.create({ model: "m", messages: [] })).rejects.toMatchObject({
      status: 401,
      code: "invalid_api_key",
    });
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain("mock-model");
  });
});
