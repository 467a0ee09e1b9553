// The context rows' excerpt: the same text as collapsing the whole message's text, for any text, however long.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../core/session/index.ts";
import { createMessageExcerpter } from "./message-excerpt.ts";

const messageExcerpt = (message: AgentMessage, max?: number) => createMessageExcerpter(max)(message);

/** The excerpt's definition, written the slow way: the whole text, collapsed, then cut. */
function collapseWhole(text: string, max = 100): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

const user = (content: unknown) => ({ role: "user", content, timestamp: 1 }) as AgentMessage;

describe("messageExcerpt", () => {
  it("collapses whitespace runs and trims, as the slow definition does, for any string", () => {
    const spacey = fc.string({
      unit: fc.constantFrom("a", "b", " ", "\n", "\t", "\u00a0", "\u2028", "\ufeff", "\u3000", "é", "\r"),
      maxLength: 300,
    });
    fc.assert(
      fc.property(spacey, fc.integer({ min: 1, max: 120 }), (text, max) => {
        expect(messageExcerpt(user(text), max)).toBe(collapseWhole(text, max));
      }),
      { numRuns: 2000 },
    );
  });

  it("joins text blocks with a space before collapsing, for any blocks", () => {
    const piece = fc.string({ unit: fc.constantFrom("x", "y", " ", "\n", "\u2003"), maxLength: 60 });
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (texts) => {
        const blocks = texts.map((text) => ({ type: "text", text }));
        expect(messageExcerpt(user(blocks), 40)).toBe(collapseWhole(texts.join(" "), 40));
      }),
      { numRuns: 1000 },
    );
  });

  it("joins blocks with a space: text, thinking, tool calls with their arguments, images", () => {
    const message = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "  plan\n\nfirst " },
        { type: "text", text: "then" },
        { type: "toolCall", id: "t1", name: "read", arguments: { path: "a b.ts" } },
        { type: "image", data: "", mimeType: "image/png" },
        { type: "unknown" },
        null,
        { type: "text", text: " end " },
      ],
    } as unknown as AgentMessage;
    expect(messageExcerpt(message)).toBe('plan first then read({"path":"a b.ts"}) [image] end');
  });

  it("shows a summary's text and a bash command", () => {
    const summary = { role: "compactionSummary", summary: "Goal:\n  ship it", tokensBefore: 1 };
    expect(messageExcerpt(summary as unknown as AgentMessage)).toBe("Goal: ship it");
    const bash = { role: "bashExecution", command: "ls  -la", output: "x" };
    expect(messageExcerpt(bash as unknown as AgentMessage)).toBe("$ ls -la");
  });

  it("cuts at 100 characters with an ellipsis, and reads no further than it needs", () => {
    const long = "word ".repeat(100_000);
    const excerpt = messageExcerpt(user([{ type: "text", text: long }]));
    expect(excerpt).toBe(`${"word ".repeat(20)}…`);
    let read = 0;
    const counted = {
      get text() {
        read++;
        return long;
      },
      type: "text",
    };
    messageExcerpt(user([counted, counted, counted]));
    expect(read).toBe(1);
  });

  it("shows a tool call as name(arguments as JSON), however large the arguments", () => {
    const args = { path: "a.ts", content: "line\n".repeat(50_000), nested: [1, null, { deep: true }] };
    const call = (a: unknown) =>
      ({
        role: "assistant",
        content: [{ type: "toolCall", id: "t", name: "write", arguments: a }],
      }) as unknown as AgentMessage;
    expect(messageExcerpt(call(args))).toBe(collapseWhole(`write(${JSON.stringify(args)})`));
    expect(messageExcerpt(call(undefined))).toBe("write(undefined)");
    expect(messageExcerpt(call({ a: 1 }), 6)).toBe("write(…");
  });

  it("gives each message its own excerpt when one excerpter serves many", () => {
    const excerpt = createMessageExcerpter(10);
    expect(excerpt(user("a long first message"))).toBe("a long fir…");
    expect(excerpt(user(" b "))).toBe("b");
    expect(excerpt(user("   "))).toBe("");
  });

  it("says nothing for content it does not show", () => {
    expect(messageExcerpt(user(undefined))).toBe("");
    expect(messageExcerpt(user([{ type: "image" }]))).toBe("[image]");
    expect(messageExcerpt(user("   \n "))).toBe("");
  });
});
