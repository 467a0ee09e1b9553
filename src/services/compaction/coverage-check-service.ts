/** "Check with model": one request to the summarizer about the requests a summary leaves out. */

import type { CompleteFn } from "../../core/compaction/summarize.ts";
import type { CoverageCandidate, CoverageRange } from "../../core/coverage/coverage-extract.ts";
import { modelCheckRequest, parseModelCheck } from "../../core/coverage/coverage-model-check.ts";
import { createCompleteFn } from "../../llm/complete.ts";
import type { SummarizerEndpoint } from "./compaction-runner.ts";

export async function checkCoverageWithModel(input: {
  ranges: readonly CoverageRange[];
  summary: string;
  endpoint: SummarizerEndpoint;
  signal: AbortSignal;
  complete?: CompleteFn;
}): Promise<{ ok: true; items: CoverageCandidate[]; asked: number } | { ok: false; error: string }> {
  const request = modelCheckRequest(input.ranges, input.summary);
  if (request.requests.length === 0) return { ok: true, items: [], asked: 0 };
  const complete = input.complete ?? createCompleteFn(input.endpoint);
  const r = await complete({
    systemPrompt: request.systemPrompt,
    userMessage: request.userMessage,
    maxTokens: request.maxTokens,
    signal: input.signal,
  });
  if (!r.ok) return { ok: false, error: r.error };
  const parsed = parseModelCheck(r.text, request.requests);
  return parsed.ok ? { ok: true, items: parsed.items, asked: request.requests.length } : parsed;
}
