/**
 * Conversion to Chat Completions messages and tools: tool calls and results, images as data URLs,
 * error replies and orphans dropped, other roles as user text.
 */
import { describe, expect, it } from "vitest";
import type { AgentMessage, AssistantMessage } from "../core/session/types.ts";
import { toChatMessages, toChatTools } from "./messages.ts";
import { emptyUsage } from "./stream-mapper.ts";

const assistant = (
  content: AssistantMessage["content"],
  stopReason: AssistantMessage["stopReason"] = "stop",
): AssistantMessage => ({
  role: "assistant",
  content,
  api: "openai-completions",
  provider: "openai",
  model: "gpt-4o",
  usage: emptyUsage(),
  stopReason,
  timestamp: 1,
});

describe("toChatMessages", () => {
  it("maps user, assistant tool calls and tool results; drops thinking", () => {
    const msgs: AgentMessage[] = [
      { role: "user", content: [{ type: "text", text: "read a" }], timestamp: 1 },
      assistant(
        [
          { type: "thinking", thinking: "secret" },
          { type: "text", text: "Sure." },
          { type: "toolCall", id: "c1", name: "read", arguments: { path: "a" } },
        ],
        "toolUse",
      ),
      {
        role: "toolResult",
        toolCallId: "c1",
        toolName: "read",
        content: [{ type: "text", text: "1\tx" }],
        isError: false,
        timestamp: 2,
      },
      assistant([{ type: "text", text: "Done." }]),
    ];
    expect(toChatMessages("sys", msgs)).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: "read a" },
      {
        role: "assistant",
        content: "Sure.",
        tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "1\tx" },
      { role: "assistant", content: "Done." },
    ]);
  });

  it("sends images as image_url data URLs, for users and (after the tool block) for tool results", () => {
    const msgs: AgentMessage[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", data: "AAA", mimeType: "image/png" },
        ],
        timestamp: 1,
      },
      assistant(
        [
          { type: "toolCall", id: "c1", name: "read", arguments: { path: "p.png" } },
          { type: "toolCall", id: "c2", name: "ls", arguments: {} },
        ],
        "toolUse",
      ),
      {
        role: "toolResult",
        toolCallId: "c1",
        toolName: "read",
        content: [{ type: "image", data: "BBB", mimeType: "image/jpeg" }],
        isError: false,
        timestamp: 2,
      },
      {
        role: "toolResult",
        toolCallId: "c2",
        toolName: "ls",
        content: [{ type: "text", text: "a" }],
        isError: false,
        timestamp: 2,
      },
    ];
    const out = toChatMessages("", msgs);
    expect(out[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "look" },
        { type: "image_url", image_url: { url: "data:image/png;base64,AAA" } },
      ],
    });
    expect(out.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "user"]);
    expect(JSON.stringify(out[4])).toContain("data:image/jpeg;base64,BBB");
  });

  it("pi 1.6's rule: drops error and stopped replies and orphan tool results", () => {
    const msgs: AgentMessage[] = [
      { role: "user", content: "hi", timestamp: 1 },
      assistant([{ type: "text", text: "" }], "error"),
      assistant(
        [
          { type: "text", text: "partial" },
          { type: "toolCall", id: "never", name: "ls", arguments: {} },
        ],
        "aborted",
      ),
      { role: "toolResult", toolCallId: "ghost", toolName: "ls", content: [], isError: true, timestamp: 2 },
    ];
    expect(toChatMessages("", msgs)).toEqual([{ role: "user", content: "hi" }]);
  });

  it("a call without a result gets pi's 'No result provided'; user messages back to back are joined", () => {
    const msgs: AgentMessage[] = [
      { role: "user", content: "hi", timestamp: 1 },
      assistant([{ type: "toolCall", id: "c1", name: "ls", arguments: {} }], "toolUse"),
      { role: "user", content: "and?", timestamp: 3 },
      assistant([{ type: "text", text: "cut" }], "error"),
      { role: "user", content: "again", timestamp: 5 },
    ];
    expect(toChatMessages("", msgs)).toEqual([
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "ls", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "No result provided" },
      { role: "user", content: "and?\n\nagain" },
    ]);
  });

  it("converts leftover non-standard roles to user text", () => {
    const out = toChatMessages("", [
      { role: "compactionSummary", summary: "S", tokensBefore: 1, timestamp: 1 },
    ]);
    expect(out).toEqual([{ role: "user", content: "<summary>\nS\n</summary>" }]);
  });

  it("maps tool definitions", () => {
    expect(toChatTools([{ name: "ls", description: "list", parameters: { type: "object" } }])).toEqual([
      { type: "function", function: { name: "ls", description: "list", parameters: { type: "object" } } },
    ]);
  });
});
