/**
 * Telling a context overflow from other failures: providers' error texts, Cerebras' body-less 400/413,
 * and a reply that overflowed silently or with an error.
 */
import { describe, expect, it } from "vitest";
import type { AssistantMessage } from "../session/types.ts";
import { isContextOverflowError, isOverflowErrorReply, isSilentOverflow } from "./overflow.ts";

const OVERFLOWS = [
  "prompt is too long: 213462 tokens > 200000 maximum",
  "Input is too long for requested model.",
  "Your input exceeds the context window of this model",
  "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).",
  "This model's maximum prompt length is 131072 but the request contains 537812 tokens.",
  "Please reduce the length of the messages or completion.",
  "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
  "Requested 300000 tokens, which exceeds the limit of 262144",
  "the request exceeds the available context size, try increasing it",
  "prompt token count of 140000 is greater than the context length of 131072",
  "Context window exceeds limit",
  "Exceeded model token limit: 65536",
  "Request too large for model with 32768 maximum context length",
  "model_context_window_exceeded",
  "error code: context_length_exceeded",
  "Context length exceeded",
  "Too many tokens in request",
  "token limit exceeded",
  "PROMPT IS TOO LONG",
  // pi 1.6 recognises these too.
  "prompt too long",
  "Prompt exceeds max length",
  "request_too_large: request exceeds the maximum size",
  "This request exceeds the model's maximum context length of 128,000 tokens",
  "litellm.ContextWindowExceededError: Context window exceeded for model",
  "The input exceeds the maximum allowed input length of 200,000 tokens",
  "Input (140000 tokens) is longer than the model's context length (131072 tokens)",
  "Prompt has 200,000 tokens, but the configured context size is 131,072 tokens",
  "prompt too long; exceeded max context length by 4000 tokens",
  "Range of input length should be [1, 129024]",
  "413 Payload Too Large",
  "Anthropic API error (413): too big",
];

const NOT_OVERFLOWS = [
  "429 Too Many Requests",
  "Rate limit reached for gpt-4o on tokens per min (TPM): too many tokens",
  "rate_limit_exceeded: token limit exceeded for this minute",
  "500 Internal Server Error",
  "401 Incorrect API key provided",
  "400 Bad Request: invalid tool schema",
  "the 400 (no body)",
  // A body-less 400/413 means overflow only from Cerebras.
  "400 (no body)",
  "Throttling error: too many tokens, slow down",
  "Service unavailable: prompt is too long to queue",
  "",
];

describe("isContextOverflowError", () => {
  it.each(OVERFLOWS)("overflow: %s", (text) => {
    expect(isContextOverflowError(text)).toBe(true);
  });
  it.each(NOT_OVERFLOWS)("not overflow: %s", (text) => {
    expect(isContextOverflowError(text)).toBe(false);
  });
  it("a body-less 400 / 413 is an overflow from Cerebras only", () => {
    expect(isContextOverflowError("400 (no body)", "cerebras")).toBe(true);
    expect(isContextOverflowError("413 status code (no body)", "cerebras")).toBe(true);
    expect(isContextOverflowError("400 (no body)", "openai")).toBe(false);
  });
  it("is false for missing messages", () => {
    expect(isContextOverflowError(undefined)).toBe(false);
    expect(isContextOverflowError(null)).toBe(false);
  });
});

const reply = (
  stopReason: AssistantMessage["stopReason"],
  input: number,
  cacheRead: number,
  errorMessage?: string,
): AssistantMessage => ({
  role: "assistant",
  content: [],
  api: "x",
  provider: "p",
  model: "m",
  usage: {
    input,
    output: 5,
    cacheRead,
    cacheWrite: 0,
    totalTokens: input + cacheRead + 5,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  },
  stopReason,
  timestamp: 0,
  ...(errorMessage ? { errorMessage } : {}),
});

describe("overflow replies", () => {
  it("silent overflow: stop with input + cacheRead strictly above the window", () => {
    expect(isSilentOverflow(reply("stop", 60000, 40001), 100000)).toBe(true);
    expect(isSilentOverflow(reply("stop", 60000, 40000), 100000)).toBe(false);
    expect(isSilentOverflow(reply("toolUse", 200000, 0), 100000)).toBe(false);
    expect(isSilentOverflow(reply("stop", 200000, 0), 0)).toBe(false);
    expect(isSilentOverflow({ role: "user", content: "x", timestamp: 0 }, 10)).toBe(false);
  });
  it("error reply with overflow text", () => {
    expect(isOverflowErrorReply(reply("error", 0, 0, "prompt is too long"))).toBe(true);
    expect(isOverflowErrorReply(reply("error", 0, 0, "429 rate limit"))).toBe(false);
    expect(isOverflowErrorReply(reply("stop", 0, 0, "prompt is too long"))).toBe(false);
  });
});
