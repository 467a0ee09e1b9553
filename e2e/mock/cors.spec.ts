/**
 * The mock server answers a real browser like real endpoints do: CORS preflight for the headers
 * the openai SDK sends, SSE readable from the page, Retry-After readable on a 429.
 */
import { expect, test } from "@playwright/test";
import { getChatRequests, MOCK_BASE_URL, scriptReplies, uniqueKey } from "./client.ts";

test("a page on the app origin can stream from the mock with SDK-style headers", async ({ page }) => {
  const key = uniqueKey("cors");
  await scriptReplies(key, [{ text: ["Hel", "lo"] }, { error: { preset: "rate-limit", retryAfter: 3 } }]);
  await page.goto("/");
  const result = await page.evaluate(
    async ({ base, key }) => {
      const headers = {
        Authorization: `Bearer ${key}`,
        "Content-Type": "application/json",
        "X-Stainless-OS": "Linux",
        "X-Stainless-Retry-Count": "0",
      };
      const body = JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "hi" }] });
      const r1 = await fetch(`${base}/chat/completions`, { method: "POST", headers, body });
      const sse = await r1.text();
      const r2 = await fetch(`${base}/chat/completions`, { method: "POST", headers, body });
      return { status1: r1.status, sse, status2: r2.status, retryAfter: r2.headers.get("retry-after") };
    },
    { base: MOCK_BASE_URL, key },
  );
  expect(result.status1).toBe(200);
  expect(result.sse).toContain('"content":"Hel"');
  expect(result.sse.trimEnd().endsWith("data: [DONE]")).toBe(true);
  expect(result.status2).toBe(429);
  expect(result.retryAfter).toBe("3");
  const recorded = await getChatRequests(key);
  expect(recorded).toHaveLength(2);
  expect(recorded[0]?.headers["x-stainless-os"]).toBe("Linux");
  expect(recorded[0]?.headers.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
});
