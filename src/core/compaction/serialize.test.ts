/**
 * The transcript the summarizer reads: labelled parts in order, no thinking, long tool results cut,
 * bash and summaries as the model sees them, tool calls with JSON values.
 */
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../session/types.ts";
import {
  formatToolCall,
  serializeConversation,
  TOOL_RESULT_MAX_CHARS,
  truncateToolResult,
} from "./serialize.ts";

describe("serializeConversation", () => {
  it("labels every part, in order, separated by blank lines", () => {
    const messages: AgentMessage[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "fix " },
          { type: "image", data: "AAAA", mimeType: "image/png" },
          { type: "text", text: "the test" },
        ],
        timestamp: 0,
      },
      {
        role: "assistant",
        content: [
          { type: "toolCall", id: "1", name: "read", arguments: { path: "/a.ts", limit: 10 } },
          { type: "text", text: "Reading." },
          { type: "thinking", thinking: "Look at a.ts" },
          { type: "toolCall", id: "2", name: "bash", arguments: { command: "ls" } },
        ],
        api: "x",
        provider: "p",
        model: "m",
        usage: {
          input: 0,
          output: 0,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 0,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason: "toolUse",
        timestamp: 0,
      },
      {
        role: "toolResult",
        toolCallId: "1",
        toolName: "read",
        content: [{ type: "text", text: "contents" }],
        isError: false,
        timestamp: 0,
      },
      { role: "user", content: "", timestamp: 0 },
    ];
    expect(serializeConversation(messages)).toBe(
      [
        "[User]: fix the test",
        // Thinking is left out of the transcript (pi 1.6).
        "[Assistant]: Reading.",
        '[Assistant tool calls]: read(path="/a.ts", limit=10); bash(command="ls")',
        "[Tool result]: contents",
      ].join("\n\n"),
    );
  });

  it("cuts long tool results at 2000 characters with a bracketed note", () => {
    const long = `${"a".repeat(TOOL_RESULT_MAX_CHARS)}${"b".repeat(500)}`;
    const out = truncateToolResult(long);
    expect(out.startsWith("a".repeat(2000))).toBe(true);
    expect(out).not.toContain("b");
    expect(out).toMatch(/\n\n\[[^\]]*500[^\]]*\]$/);
    expect(truncateToolResult("short")).toBe("short");
  });

  it("renders non-standard roles as the model sees them (bash as user text, summaries)", () => {
    const out = serializeConversation([
      {
        role: "bashExecution",
        command: "npm test",
        output: "ok",
        exitCode: 1,
        cancelled: false,
        truncated: false,
        timestamp: 0,
      },
      {
        role: "bashExecution",
        command: "secret",
        output: "",
        exitCode: 0,
        cancelled: false,
        truncated: false,
        excludeFromContext: true,
        timestamp: 0,
      },
      { role: "compactionSummary", summary: "earlier work", tokensBefore: 5, timestamp: 0 },
    ]);
    expect(out).toMatch(/^\[User\]: .*npm test/s);
    expect(out).toContain("code 1");
    expect(out).not.toContain("secret");
    expect(out).toContain("<summary>\nearlier work\n</summary>");
  });

  it("formats tool calls with JSON values", () => {
    expect(formatToolCall("edit", { path: "/x", edits: [{ a: 1 }] })).toBe(
      'edit(path="/x", edits=[{"a":1}])',
    );
    expect(formatToolCall("noop", {})).toBe("noop()");
  });
});
