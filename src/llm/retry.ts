/**
 * Pure retry policy: whether to retry a failed request and after how long.
 * Only failures BEFORE the first streamed token are ever retried (after content has streamed a
 * retry would duplicate or contradict it). Exponential backoff with jitter, Retry-After honoured.
 */

export const MAX_RETRIES = 3;
export const BASE_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 30_000;
/** A Retry-After longer than this is not waited for: the failure is reported instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

export interface RetryInput {
  /** Retries already made (0 for the first failure). */
  attempt: number;
  /** HTTP status, or undefined for a network failure. */
  status: number | undefined;
  /** Whether any content already streamed. */
  streamed: boolean;
  /** Retry-After in ms, parsed from the header (see parseRetryAfter). */
  retryAfterMs?: number;
  /** The failure was a network error (no response at all). */
  network?: boolean;
  /** The failure was the person aborting. */
  aborted?: boolean;
  /** A rate-limit whose body says the quota/billing is exhausted: waiting will not help. */
  quotaExhausted?: boolean;
  /** 0..1, injected for tests; defaults to 0.5 (no jitter). */
  random?: number;
}

export type RetryDecision = { retry: true; delayMs: number; reason: string } | { retry: false };

export function retryDecision(input: RetryInput): RetryDecision {
  if (input.aborted || input.streamed || input.attempt >= MAX_RETRIES) return { retry: false };
  const { status } = input;
  let reason: string;
  if (input.network && status === undefined) reason = "network error";
  else if (status === 429 && !input.quotaExhausted) reason = "rate limited (429)";
  else if (status === 408) reason = "request timeout (408)";
  else if (status !== undefined && status >= 500 && status <= 599) reason = `server error (${status})`;
  else return { retry: false };

  if (input.retryAfterMs !== undefined && input.retryAfterMs >= 0) {
    if (input.retryAfterMs > MAX_RETRY_AFTER_MS) return { retry: false };
    return { retry: true, delayMs: Math.max(0, Math.round(input.retryAfterMs)), reason };
  }
  const backoff = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** input.attempt);
  const jitter = 0.75 + 0.5 * (input.random ?? 0.5); // 75%..125%
  return { retry: true, delayMs: Math.round(backoff * jitter), reason };
}

/**
 * Parses Retry-After (seconds or an HTTP date) or retry-after-ms into milliseconds.
 * `now` is injected so the function stays pure.
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
  now: number,
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  if (Number.isFinite(date)) return Math.max(0, date - now);
  return undefined;
}
