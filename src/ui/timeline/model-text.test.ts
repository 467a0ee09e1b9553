/** The text the model sees of an entry: user text as is, images named, tool calls, summaries, unsent ones. */
import { describe, expect, it } from "vitest";
import { COMPACTION_SUMMARY_PREFIX } from "../../core/session/context.ts";
import { assistant, entry, msg, toolResult, user } from "../../core/session/test-builders.ts";
import type { AgentMessage } from "../../core/session/types.ts";
import { entryModelText, jsonText, messageModelText } from "./model-text.ts";

describe("the text the model sees", () => {
  it("is a user message's text exactly, HTML and hidden characters included", () => {
    const text = 'Hi <span hidden>secret</span> <img src="http://x/y.png"> \u202Eabc';
    expect(entryModelText(msg("a", null, user(text)))).toBe(text);
  });

  it("names images instead of dumping their data", () => {
    const m = user("x");
    m.content = [
      { type: "text", text: "look" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
    ];
    expect(messageModelText(m)).toBe("look\n[image image/png, 4 base64 characters]");
  });

  it("gives an assistant's text and its tool calls with their JSON arguments", () => {
    const a = assistant("Reading.");
    a.content.push({ type: "toolCall", id: "c1", name: "read", arguments: { path: "src/\u202Etxt.js" } });
    expect(messageModelText(a)).toBe('Reading.\n\n[tool call read (c1)] {"path":"src/\u202Etxt.js"}');
  });

  it("says that a failed reply is not sent", () => {
    const a = assistant("partial");
    a.stopReason = "error";
    expect(messageModelText(a)).toMatch(/^\(This reply ended in an error: it is not sent to the model\.\)/);
  });

  it("is a compaction's summary as the user text it becomes", () => {
    const c = entry("compaction", "c", null, {
      summary: "## Goal\nx",
      firstKeptEntryId: "a",
      tokensBefore: 1,
    });
    expect(entryModelText(c)).toBe(`${COMPACTION_SUMMARY_PREFIX}<summary>\n## Goal\nx\n</summary>`);
  });

  it("is a tool result's text, or the note a provider gets for no output", () => {
    expect(messageModelText(toolResult("file body"))).toBe("file body");
    expect(messageModelText({ ...toolResult(""), content: [] } as AgentMessage)).toBe("(no output)");
  });

  it("says when an entry is not sent, with its JSON bounded even when 100k levels deep", () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const text = entryModelText(entry("custom", "x", null, { customType: "ext", data: deep }));
    expect(text).toMatch(/^\(This entry is not sent to the model\.\)\n\{/);
    expect(text).toContain("{… 1 key}");
    expect(jsonText(deep)).toContain("(too deep to send as it is)");
  });
});
