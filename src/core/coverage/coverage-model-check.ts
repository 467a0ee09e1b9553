/**
 * "Check with model" (optional, on top of the deterministic coverage check): one request lists
 * the person's requests from the summarized range and the summary, and asks which requests the
 * summary does not cover; the answer (request numbers) becomes coverage items to add or dismiss.
 * Pure: the request text and the parsing of the answer.
 */
import type { AgentMessage } from "../session/types.ts";
import type { CoverageCandidate, CoverageRange } from "./coverage-extract.ts";
import { coverageKey } from "./coverage-extract.ts";
import { clip, contentText } from "./coverage-text.ts";

export interface PersonRequest {
  /** 1-based number, as the model sees it. */
  n: number;
  text: string;
  entryId: string | undefined;
}

export interface ModelCheckRequest {
  systemPrompt: string;
  userMessage: string;
  maxTokens: number;
  requests: PersonRequest[];
}

const MAX_REQUESTS = 80;
const MAX_CHARS = 400;

/** The person's messages of the ranges (the latest MAX_REQUESTS), clipped. */
export function personRequests(ranges: readonly CoverageRange[]): PersonRequest[] {
  const found: { text: string; entryId: string | undefined }[] = [];
  for (const r of ranges)
    r.messages.forEach((m: AgentMessage, i) => {
      if (m.role !== "user") return;
      const text = clip(contentText(m.content), MAX_CHARS);
      if (text !== "") found.push({ text, entryId: r.entryIds[i] });
    });
  return found.slice(-MAX_REQUESTS).map((f, i) => ({ n: i + 1, ...f }));
}

export function modelCheckRequest(ranges: readonly CoverageRange[], summary: string): ModelCheckRequest {
  const requests = personRequests(ranges);
  const list = requests.map((r) => `[${r.n}] ${r.text}`).join("\n");
  return {
    systemPrompt:
      "You check summaries of conversations. You answer with a JSON array of numbers and nothing else.",
    userMessage: `These are the person's messages from the part of a conversation that a summary replaces:

<requests>
${list}
</requests>

This is the summary:

<summary>
${summary}
</summary>

Which of the numbered requests, instructions or constraints does the summary leave out or get wrong, so that an assistant reading only the summary would not know about them? Ignore greetings, thanks and messages that ask for nothing. Answer with a JSON array of their numbers, for example [2, 7], or [] when the summary covers them all.`,
    maxTokens: 200,
    requests,
  };
}

/** The requests the answer names, as coverage items; an answer that is not a list of numbers is an error. */
export function parseModelCheck(
  answer: string,
  requests: readonly PersonRequest[],
): { ok: true; items: CoverageCandidate[] } | { ok: false; error: string } {
  const m = /\[[\d\s,]*\]/.exec(answer);
  if (!m) return { ok: false, error: "The model's answer was not a list of request numbers." };
  const numbers = m[0]
    .slice(1, -1)
    .split(",")
    .map((x) => Number(x.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
  const byN = new Map(requests.map((r) => [r.n, r]));
  const items: CoverageCandidate[] = [];
  const seen = new Set<string>();
  for (const n of numbers) {
    const r = byN.get(n);
    if (!r) continue;
    const key = coverageKey("todo", r.text);
    if (seen.has(key)) continue;
    seen.add(key);
    items.push({ kind: "todo", text: r.text, key, entryIds: r.entryId ? [r.entryId] : [], detail: "model" });
  }
  return { ok: true, items };
}
