/** Chat Completions conversion of the real pi fixture's context: a conversation providers accept. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { buildSessionContext, toLlmMessages } from "../core/session/context.ts";
import { parseSessionJsonl } from "../core/session/parse.ts";
import { buildTreeIndex, getPath } from "../core/session/tree.ts";
import type { ToolCall } from "../core/session/types.ts";
import { toChatMessages } from "./messages.ts";

const FIXTURE = resolve(import.meta.dirname, "../../../shared/fixtures/pi/before-compaction.jsonl");

describe("toChatMessages on the real fixture", () => {
  it("pairs every tool message with the assistant call right before it, at every leaf of the path", () => {
    const parsed = parseSessionJsonl(readFileSync(FIXTURE, "utf8"));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const { entries } = parsed.value;
    const index = buildTreeIndex(entries);
    let checkedToolMessages = 0;
    // Every 25th entry as a leaf: covers before, between and after both compactions.
    for (let i = 0; i < entries.length; i += 25) {
      const ctx = buildSessionContext(getPath(index.byId, entries[i]!.id));
      const llm = toLlmMessages(ctx.messages);
      const chat = toChatMessages("sys", llm);
      expect(chat[0]).toEqual({ role: "system", content: "sys" });
      let open = new Set<string>();
      const answered = new Set<string>();
      for (const m of chat) {
        expect(["system", "user", "assistant", "tool"]).toContain(m.role);
        if (m.role === "tool") {
          expect(open.has(m.tool_call_id)).toBe(true);
          open.delete(m.tool_call_id);
          answered.add(m.tool_call_id);
          checkedToolMessages++;
          continue;
        }
        expect(open.size).toBe(0); // every call answered before the conversation moves on
        if (m.role === "assistant" && m.tool_calls) {
          open = new Set(m.tool_calls.map((c) => c.id));
          for (const c of m.tool_calls) {
            if (c.type === "function") expect(typeof JSON.parse(c.function.arguments)).toBe("object");
          }
        }
      }
      // The calls that were answered in pi's context are all kept, with their arguments.
      const piCalls = llm.flatMap((m) =>
        m.role === "assistant" ? m.content.filter((b): b is ToolCall => b.type === "toolCall") : [],
      );
      const piAnswered = new Set(llm.flatMap((m) => (m.role === "toolResult" ? [m.toolCallId] : [])));
      for (const c of piCalls) if (piAnswered.has(c.id) && c.id) expect(answered.has(c.id)).toBe(true);
      expect(JSON.stringify(chat)).not.toContain('"thinking"');
    }
    expect(checkedToolMessages).toBeGreaterThan(1000);
  });
});
