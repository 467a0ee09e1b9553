/**
 * Mapping a Chat Completions stream to an assistant message: thinking, text, tool calls in pieces
 * and in parallel, stop reasons, usage and cost, aborts keeping what streamed.
 */
import { describe, expect, it, vi } from "vitest";
import type { ToolCall } from "../core/session/types.ts";
import {
  type AssistantStreamEvent,
  type ChunkLike,
  parseToolArguments,
  StreamMapper,
} from "./stream-mapper.ts";

const delta = (d: object, finish: string | null = null): ChunkLike => ({
  choices: [{ delta: d as never, finish_reason: finish }],
});

function run(chunks: ChunkLike[], prices?: { input: number; output: number; cacheRead?: number }) {
  const events: AssistantStreamEvent[] = [];
  const mapper = new StreamMapper({ provider: "openai", model: "gpt-4o", timestamp: 42, prices }, (e) =>
    events.push(e),
  );
  mapper.start();
  for (const c of chunks) mapper.push(c);
  return { message: mapper.finish(), events, mapper };
}

describe("StreamMapper", () => {
  it("maps a DeepSeek-style stream: reasoning_content, then text, then usage with cache", () => {
    const { message, events } = run([
      delta({ role: "assistant", content: "" }),
      delta({ reasoning_content: "Let me " }),
      delta({ reasoning_content: "think." }),
      delta({ content: "The answer" }),
      delta({ content: " is 4." }),
      delta({}, "stop"),
      {
        choices: [],
        usage: {
          prompt_tokens: 1000,
          completion_tokens: 50,
          total_tokens: 1050,
          prompt_tokens_details: { cached_tokens: 600 },
        },
      },
    ]);
    expect(message.content).toEqual([
      { type: "thinking", thinking: "Let me think." },
      { type: "text", text: "The answer is 4." },
    ]);
    expect(message.stopReason).toBe("stop");
    expect(message.api).toBe("openai-completions");
    expect(message.timestamp).toBe(42);
    expect(message.usage).toMatchObject({
      input: 400,
      cacheRead: 600,
      output: 50,
      cacheWrite: 0,
      totalTokens: 1050,
    });
    expect(events.map((e) => e.type)).toEqual([
      "start",
      "thinking_delta",
      "thinking_delta",
      "text_delta",
      "text_delta",
    ]);
  });

  it("accepts `reasoning` (OpenRouter/Ollama) as thinking", () => {
    const { message } = run([delta({ reasoning: "hmm" }), delta({ content: "ok" }, "stop")]);
    expect(message.content[0]).toEqual({ type: "thinking", thinking: "hmm" });
  });

  it("assembles tool calls split across chunks, several in parallel, and ends with toolUse", () => {
    const { message, events } = run([
      delta({ content: "Reading." }),
      delta({
        tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "read", arguments: "" } }],
      }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"pa' } }] }),
      delta({ tool_calls: [{ index: 1, id: "call_b", function: { name: "ls", arguments: '{"path":' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: 'th":"a.ts"}' } }] }),
      delta({ tool_calls: [{ index: 1, function: { arguments: '"src"}' } }] }),
      delta({}, "tool_calls"),
    ]);
    expect(message.stopReason).toBe("toolUse");
    const calls = message.content.filter((b): b is ToolCall => b.type === "toolCall");
    expect(calls).toEqual([
      { type: "toolCall", id: "call_a", name: "read", arguments: { path: "a.ts" } },
      { type: "toolCall", id: "call_b", name: "ls", arguments: { path: "src" } },
    ]);
    expect(
      events.filter((e) => e.type === "toolcall_start").map((e) => (e as { name: string }).name),
    ).toEqual(["read", "ls"]);
    expect(events.filter((e) => e.type === "toolcall_delta")).toHaveLength(4);
  });

  it("treats tool calls with finish_reason stop as toolUse, length as length, content_filter as error", () => {
    expect(
      run([delta({ tool_calls: [{ index: 0, id: "x", function: { name: "ls", arguments: "{}" } }] }, "stop")])
        .message.stopReason,
    ).toBe("toolUse");
    expect(run([delta({ content: "abc" }, "length")]).message.stopReason).toBe("length");
    const filtered = run([delta({ content: "a" }, "content_filter")]).message;
    expect(filtered.stopReason).toBe("error");
    expect(filtered.errorMessage).toMatch(/content filter/);
  });

  it("keeps streamed content on an abort/error override", () => {
    const mapper = new StreamMapper({ provider: "p", model: "m", timestamp: 1 });
    mapper.push(delta({ content: "partial" }));
    mapper.push(
      delta({ tool_calls: [{ index: 0, id: "c", function: { name: "write", arguments: '{"path":"a"' } }] }),
    );
    const m = mapper.finish({ stopReason: "aborted" });
    expect(m.stopReason).toBe("aborted");
    expect(m.content[0]).toEqual({ type: "text", text: "partial" });
    expect((m.content[1] as ToolCall).arguments).toEqual({});
    expect(mapper.rawToolArguments().get(1)).toBe('{"path":"a"');
  });

  it("computes cost from prices per MTok", () => {
    const { message } = run(
      [
        delta({ content: "x" }, "stop"),
        {
          choices: [],
          usage: {
            prompt_tokens: 2_000_000,
            completion_tokens: 1_000_000,
            prompt_tokens_details: { cached_tokens: 1_000_000 },
          },
        },
      ],
      { input: 2, output: 8, cacheRead: 0.5 },
    );
    expect(message.usage.cost).toEqual({ input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0, total: 10.5 });
  });

  it("generates a placeholder id when a provider omits it, replaced when it arrives later", () => {
    const events: AssistantStreamEvent[] = [];
    const mapper = new StreamMapper({ provider: "openai", model: "gpt-4o", timestamp: 42 }, (e) =>
      events.push(e),
    );
    mapper.start();
    mapper.push(delta({ tool_calls: [{ index: 0, function: { name: "ls", arguments: "" } }] }));
    mapper.push(delta({ tool_calls: [{ index: 1, function: { name: "read", arguments: "" } }] }));
    const live = (i: number) =>
      (events.at(-1) as { message: { content: ToolCall[] } }).message.content[i]!.id;
    // Until the id comes, each call has a placeholder of its own (announced with toolcall_start).
    expect([live(0), live(1)]).toEqual(["call_0", "call_1"]);
    expect(
      events.filter((e) => e.type === "toolcall_start").map((e) => e.type === "toolcall_start" && e.id),
    ).toEqual(["call_0", "call_1"]);
    mapper.push(delta({ tool_calls: [{ index: 0, id: "real", function: { arguments: "{}" } }] }));
    expect(live(0)).toBe("real");
    // A later id does not replace one that came from the provider.
    mapper.push(delta({ tool_calls: [{ index: 0, id: "other", function: { arguments: "" } }] }));
    const message = mapper.finish();
    expect(message.content.map((b) => (b as ToolCall).id)).toEqual(["real", "call_1"]);
  });

  it("separates parallel tool calls of servers that omit `index` by their ids", () => {
    const { message } = run([
      delta({ tool_calls: [{ id: "a", function: { name: "read", arguments: '{"path":"x"}' } }] }),
      delta({ tool_calls: [{ id: "b", function: { name: "read", arguments: '{"path":' } }] }),
      delta({ tool_calls: [{ function: { arguments: '"y"}' } }] }, "tool_calls"),
    ]);
    expect(message.content).toEqual([
      { type: "toolCall", id: "a", name: "read", arguments: { path: "x" } },
      { type: "toolCall", id: "b", name: "read", arguments: { path: "y" } },
    ]);
  });

  it("assembles a big streamed argument (a long write) in linear time", () => {
    // The work is the text given to JSON.parse (counted, not timed): re-parsing the growing
    // arguments on every fragment would make it quadratic in their length.
    const parsedChars = (size: number) => {
      const content = "x".repeat(size);
      const json = JSON.stringify({ path: "big.txt", content });
      const chunks: ChunkLike[] = [
        delta({ tool_calls: [{ index: 0, id: "w", function: { name: "write", arguments: "" } }] }),
      ];
      for (let i = 0; i < json.length; i += 40) {
        chunks.push(delta({ tool_calls: [{ index: 0, function: { arguments: json.slice(i, i + 40) } }] }));
      }
      const parse = vi.spyOn(JSON, "parse");
      try {
        const { message } = run(chunks);
        expect((message.content[0] as ToolCall).arguments).toEqual({ path: "big.txt", content });
        return parse.mock.calls.reduce((sum, [text]) => sum + String(text).length, 0);
      } finally {
        parse.mockRestore();
      }
    };
    const n = 200_000;
    const once = parsedChars(n);
    const twice = parsedChars(2 * n);
    // n more characters cost about n more parsed characters (quadratic would cost ~ n² / 40).
    expect(twice - once).toBeGreaterThanOrEqual(n);
    expect(twice - once).toBeLessThan(1.1 * n);
  });

  it("parseToolArguments: objects only, {} otherwise", () => {
    expect(parseToolArguments('{"a":1}')).toEqual({ a: 1 });
    expect(parseToolArguments("[1]")).toEqual({});
    expect(parseToolArguments("{bad")).toEqual({});
    expect(parseToolArguments("")).toEqual({});
  });
});
