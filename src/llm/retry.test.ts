/** When and how long to wait before retrying a request (backoff, Retry-After, never after streaming). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_RETRIES, MAX_RETRY_AFTER_MS, parseRetryAfter, retryDecision } from "./retry.ts";

const headers = (h: Record<string, string>) => ({ get: (n: string) => h[n.toLowerCase()] ?? null });

describe("retryDecision", () => {
  it("retries 429, 5xx, 408 and network failures with exponential backoff", () => {
    expect(retryDecision({ attempt: 0, status: 429, streamed: false })).toEqual({
      retry: true,
      delayMs: 1000,
      reason: "rate limited (429)",
    });
    expect(retryDecision({ attempt: 1, status: 503, streamed: false })).toMatchObject({
      retry: true,
      delayMs: 2000,
    });
    expect(retryDecision({ attempt: 2, status: undefined, network: true, streamed: false })).toMatchObject({
      retry: true,
      delayMs: 4000,
      reason: "network error",
    });
    expect(retryDecision({ attempt: 0, status: 408, streamed: false }).retry).toBe(true);
  });

  it("never retries client errors, aborts, exhausted quotas or after MAX_RETRIES", () => {
    for (const status of [400, 401, 403, 404, 413, 422]) {
      expect(retryDecision({ attempt: 0, status, streamed: false }).retry).toBe(false);
    }
    expect(retryDecision({ attempt: 0, status: 500, streamed: false, aborted: true }).retry).toBe(false);
    expect(retryDecision({ attempt: 0, status: 429, streamed: false, quotaExhausted: true }).retry).toBe(
      false,
    );
    expect(retryDecision({ attempt: MAX_RETRIES, status: 500, streamed: false }).retry).toBe(false);
  });

  it("honours Retry-After, and gives up when it is too long", () => {
    expect(retryDecision({ attempt: 0, status: 429, streamed: false, retryAfterMs: 7000 })).toMatchObject({
      delayMs: 7000,
    });
    expect(
      retryDecision({ attempt: 0, status: 429, streamed: false, retryAfterMs: MAX_RETRY_AFTER_MS + 1 }).retry,
    ).toBe(false);
  });

  it("property: never retries once content streamed; delays stay within bounds", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 }),
        fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined }),
        fc.boolean(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (attempt, status, streamed, random) => {
          const d = retryDecision({ attempt, status, streamed, network: status === undefined, random });
          if (streamed || attempt >= MAX_RETRIES) expect(d.retry).toBe(false);
          if (d.retry) {
            expect(d.delayMs).toBeGreaterThanOrEqual(750 * 2 ** attempt - 1);
            expect(d.delayMs).toBeLessThanOrEqual(30_000 * 1.25);
          }
        },
      ),
    );
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds, HTTP dates and retry-after-ms", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter(headers({ "retry-after": "3" }), now)).toBe(3000);
    expect(parseRetryAfter(headers({ "retry-after": "Thu, 01 Jan 2026 00:00:10 GMT" }), now)).toBe(10_000);
    expect(parseRetryAfter(headers({ "retry-after-ms": "250", "retry-after": "9" }), now)).toBe(250);
    expect(parseRetryAfter(headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(parseRetryAfter(headers({}), now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
