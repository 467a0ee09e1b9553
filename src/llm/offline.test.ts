// A request that fails while the browser is offline: said plainly, not retried; online failures keep their message.
import { afterEach, describe, expect, it, vi } from "vitest";
import { classifyError, offlineMessage } from "./errors.ts";
import { type StreamAssistantParams, streamAssistant } from "./stream-assistant.ts";
import type { AssistantStreamEvent } from "./stream-mapper.ts";

const BASE = "http://127.0.0.1:9/v1";

function params(events: AssistantStreamEvent[], fetch: typeof globalThis.fetch): StreamAssistantParams {
  return {
    baseUrl: BASE,
    apiKey: "sk-offline-test",
    provider: "custom",
    model: "m",
    systemPrompt: "",
    messages: [{ role: "user", content: "hello", timestamp: 1 }],
    sleep: async () => {},
    now: () => 1000,
    random: () => 0,
    onEvent: (e) => events.push(e),
    fetch,
  };
}

const failingFetch = () => vi.fn(async () => Promise.reject(new TypeError("Failed to fetch")));

afterEach(() => vi.unstubAllGlobals());

describe("offline", () => {
  it("classifies a network failure while offline with the offline message", () => {
    const error = classifyError(new TypeError("Failed to fetch"), {
      baseUrl: BASE,
      model: "m",
      offline: true,
    });
    expect(error.kind).toBe("cors-or-network");
    expect(error.message).toBe(offlineMessage(BASE));
    expect(error.message).toMatch(/^You are offline: the model endpoint .* cannot be reached\./);
  });

  it("streamAssistant offline: one attempt, no retry, the message says the endpoint cannot be reached", async () => {
    vi.stubGlobal("navigator", { onLine: false });
    const events: AssistantStreamEvent[] = [];
    const fetch = failingFetch();
    const reply = await streamAssistant(params(events, fetch as unknown as typeof globalThis.fetch));
    expect(reply.stopReason).toBe("error");
    expect(reply.errorMessage).toBe(offlineMessage(BASE));
    expect(events.filter((e) => e.type === "retry")).toHaveLength(0);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("streamAssistant online: the same failure is retried and reported as unreachable (not offline)", async () => {
    vi.stubGlobal("navigator", { onLine: true });
    const events: AssistantStreamEvent[] = [];
    const fetch = failingFetch();
    const reply = await streamAssistant(params(events, fetch as unknown as typeof globalThis.fetch));
    expect(reply.stopReason).toBe("error");
    expect(reply.errorMessage).toMatch(/^Could not reach /);
    expect(events.filter((e) => e.type === "retry").length).toBeGreaterThan(0);
    expect(fetch.mock.calls.length).toBeGreaterThan(1);
  });
});
