/**
 * The agent loop and the model-facing conversion on the real pi session fixture
 * (../shared/fixtures/pi/before-compaction.jsonl: two compactions, read/edit/write/bash calls).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { buildSessionContext, toLlmMessages } from "../session/context.ts";
import { parseSessionJsonl } from "../session/parse.ts";
import { buildTreeIndex, getPath, resolveLeafId } from "../session/tree.ts";
import { type AssistantMessage, isCompactionEntry, type SessionEntry } from "../session/types.ts";
import { runAgent } from "./loop.ts";
import { requestMessages } from "./request-messages.ts";
import type { ModelRequest } from "./types.ts";

const FIXTURE = resolve(import.meta.dirname, "../../../../shared/fixtures/pi/before-compaction.jsonl");

function fixturePath(): SessionEntry[] {
  const parsed = parseSessionJsonl(readFileSync(FIXTURE, "utf8"));
  if (!parsed.ok) throw new Error(parsed.error.message);
  const { entries } = parsed.value;
  return getPath(buildTreeIndex(entries).byId, resolveLeafId(entries));
}

describe("agent loop on the real fixture", () => {
  it("continues the session: the request is the compacted context (as pi sends it) plus the prompt, chained to the leaf", async () => {
    const path = fixturePath();
    expect(path.length).toBeGreaterThan(900);
    // What pi sends: the context, failed and stopped replies left out, back-to-back user messages joined.
    const expected = requestMessages(toLlmMessages(buildSessionContext(path).messages));
    const requests: ModelRequest[] = [];
    const reply: AssistantMessage = {
      role: "assistant",
      content: [{ type: "text", text: "ok" }],
      api: "openai-completions",
      provider: "mock",
      model: "m",
      usage: {
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 0,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: "stop",
      timestamp: 0,
    };
    let n = 0;
    const r = await runAgent(
      { path, prompt: "what next?", systemPrompt: "", tools: [], signal: new AbortController().signal },
      {
        streamModel: async (req) => {
          requests.push(req);
          return reply;
        },
        executeTool: async () => ({ content: [], isError: false }),
        append: () => {},
        newId: () => `new${++n}`,
        now: () => 1_800_000_000_000,
      },
    );
    expect(r.stopReason).toBe("stop");
    expect(r.newEntries[0]?.parentId).toBe(path[path.length - 1]?.id);
    const sent = requests[0]!.messages;
    // The fixture's context ends with a message of the person's left without a reply: the prompt
    // joins it, as one user message (pi's transform leaves back-to-back user messages; the request joins them).
    expect(expected.at(-1)?.role).toBe("user");
    expect(sent).toHaveLength(expected.length);
    expect(sent.slice(0, -1)).toEqual(expected.slice(0, -1));
    const lastSent = sent[sent.length - 1]!;
    expect(lastSent.role).toBe("user");
    expect(JSON.stringify(lastSent.role === "user" ? lastSent.content : "")).toContain("what next?");
    // the compacted context starts with the latest compaction's summary
    const compactions = path.filter(isCompactionEntry);
    expect(compactions.length).toBe(2);
    const first = sent[0]!;
    expect(first.role).toBe("user");
    const content = first.role === "user" ? first.content : "";
    const text =
      typeof content === "string" ? content : content.map((b) => (b.type === "text" ? b.text : "")).join("");
    expect(text).toContain(compactions[1]!.summary);
    expect(requests[0]!.thinkingLevel).toBe(buildSessionContext(path).thinkingLevel);
  });
});
