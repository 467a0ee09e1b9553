/**
 * The model adapter (src/llm) inside Chromium against the mock: the real openai SDK in a page of
 * the app's origin (CORS preflight, SSE), error mapping of a network failure, and abort.
 */
import { expect, test } from "@playwright/test";
import { bundleModule } from "../lib/bundle.ts";
import { getChatRequests, MOCK_BASE_URL, scriptReplies, uniqueKey } from "./client.ts";

let bundle = "";

test.beforeAll(async () => {
  bundle = await bundleModule("src/llm/index.ts", "CutpointLlm");
  expect(bundle.length).toBeGreaterThan(1000);
});

// The test injects its bundle as an inline script, which the app's CSP (rightly) forbids.
test.use({ bypassCSP: true });

test("streamAssistant runs in the browser: text, tool calls, CORS failure explained, abort", async ({
  page,
}) => {
  const key = uniqueKey("browser-adapter");
  await scriptReplies(key, [
    { reasoning: ["hmm"], text: ["Hi ", "there"], toolCalls: [{ name: "ls", arguments: { path: "." } }] },
    { text: ["a", "b", "c", "d", "e", "f", "g"], delayMs: 100 },
  ]);
  await page.goto("/");
  await page.addScriptTag({ content: bundle });
  const r = await page.evaluate(
    async ({ base, key }) => {
      // biome-ignore lint/suspicious/noExplicitAny: the IIFE global of the bundle
      const L = (globalThis as any).CutpointLlm;
      const common = {
        baseUrl: base,
        apiKey: key,
        provider: "custom",
        model: "mock-model",
        systemPrompt: "sys",
        messages: [{ role: "user", content: "hello", timestamp: 1 }],
      };
      const events: string[] = [];
      const first = await L.streamAssistant({
        ...common,
        onEvent: (e: { type: string }) => events.push(e.type),
      });
      const unreachable = await L.streamAssistant({
        ...common,
        baseUrl: "http://127.0.0.1:9/v1",
        provider: "lmstudio",
        sleep: async () => {},
      });
      const ctrl = new AbortController();
      const aborted = await L.streamAssistant({
        ...common,
        signal: ctrl.signal,
        onEvent: (e: { type: string; message?: { content: { text?: string }[] } }) => {
          if (e.type === "text_delta" && (e.message?.content[0]?.text ?? "").length >= 2) ctrl.abort();
        },
      });
      const conn = await L.testConnection({ baseUrl: base, apiKey: key }, { model: "mock-model" });
      return { first, events, unreachable, aborted, conn };
    },
    { base: MOCK_BASE_URL, key },
  );
  expect(r.first.stopReason).toBe("toolUse");
  expect(r.first.content).toEqual([
    { type: "thinking", thinking: "hmm" },
    { type: "text", text: "Hi there" },
    { type: "toolCall", id: "call_1", name: "ls", arguments: { path: "." } },
  ]);
  expect(r.events[0]).toBe("start");
  expect(r.events).toContain("toolcall_start");
  expect(r.events.at(-1)).toBe("done");
  expect(r.unreachable.stopReason).toBe("error");
  expect(r.unreachable.errorMessage).toMatch(/Could not reach http:\/\/127\.0\.0\.1:9\/v1/);
  expect(r.unreachable.errorMessage).toMatch(/Enable CORS/);
  expect(r.aborted.stopReason).toBe("aborted");
  expect(r.aborted.content).toEqual([{ type: "text", text: "ab" }]);
  expect(r.conn).toMatchObject({ ok: true, modelFound: true });

  const recorded = await getChatRequests(key);
  expect(recorded[0]?.headers.authorization).toBe(`Bearer ${key}`);
  expect(Object.keys(recorded[0]?.headers ?? {}).some((h) => h.startsWith("x-stainless-"))).toBe(true);
  expect(recorded[0]?.path).toBe("/v1/chat/completions");
});
