/** pi 1.6's rule for replies left out of a request, and back-to-back user messages joined (unit + property). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LlmMessage } from "../session/context.ts";
import { COMPACTION_SUMMARY_PREFIX } from "../session/context.ts";
import { assistant, user } from "../session/test-builders.ts";
import type { AssistantMessage, ToolCall, ToolResultMessage } from "../session/types.ts";
import {
  contextRequestMessages,
  joinUserMessages,
  NO_RESULT_TEXT,
  requestMessages,
  requestShape,
} from "./request-messages.ts";

const ended = (text: string, stopReason: AssistantMessage["stopReason"]): AssistantMessage => ({
  ...assistant(text),
  stopReason,
});
const calling = (id: string): AssistantMessage => ({
  ...assistant(""),
  content: [{ type: "toolCall", id, name: "ls", arguments: {} } as ToolCall],
  stopReason: "toolUse",
});
const result = (id: string): ToolResultMessage => ({
  role: "toolResult",
  toolCallId: id,
  toolName: "ls",
  content: [{ type: "text", text: "ok" }],
  isError: false,
  timestamp: 3,
});

describe("requestMessages", () => {
  it("leaves out error and stopped replies and joins the user messages they leave back to back", () => {
    const shape = requestShape([
      user("a"),
      ended("half", "error"),
      user("b"),
      ended("cut", "aborted"),
      user("c"),
    ]);
    expect(shape.messages).toEqual([{ ...user("a"), content: "a\n\nb\n\nc" }]);
    expect(shape.leftOut).toEqual([1, 3]);
    expect(shape.joined).toEqual([2, 4]);
  });

  it("keeps complete replies and their results; a call without a result gets pi's 'No result provided'", () => {
    const out = requestMessages([user("a"), calling("c1"), user("b")]);
    expect(out.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "user"]);
    expect((out[2] as ToolResultMessage).content).toEqual([{ type: "text", text: NO_RESULT_TEXT }]);
    expect((out[2] as ToolResultMessage).isError).toBe(true);
  });

  it("a result whose call was in a stopped reply is left out", () => {
    const stopped = { ...calling("c9"), stopReason: "aborted" as const };
    expect(requestMessages([user("a"), stopped, result("c9"), user("b")]).map((m) => m.role)).toEqual([
      "user",
    ]);
  });

  it("joins text-only blocks as text, keeps images as parts", () => {
    const summary = { role: "user" as const, content: [{ type: "text" as const, text: "S" }], timestamp: 1 };
    expect(joinUserMessages(summary, user("b")).content).toBe("S\n\nb");
    const img = {
      role: "user" as const,
      content: [{ type: "image" as const, data: "AA", mimeType: "image/png" }],
      timestamp: 1,
    };
    expect(joinUserMessages(img, user("b")).content).toEqual([
      { type: "image", data: "AA", mimeType: "image/png" },
      { type: "text", text: "\n\n" },
      { type: "text", text: "b" },
    ]);
  });

  it("property: never two user messages in a row, no error or stopped reply, every call answered; idempotent", () => {
    const message = fc.oneof(
      fc.constant<LlmMessage>(user("u")),
      fc
        .constantFrom<AssistantMessage["stopReason"]>("stop", "error", "aborted", "length")
        .map((r) => ended("t", r)),
      fc.constantFrom("c1", "c2").map((id) => calling(id) as LlmMessage),
      fc.constantFrom("c1", "c2", "c3").map((id) => result(id) as LlmMessage),
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 30 }), (list) => {
        const out = requestMessages(list);
        for (let i = 0; i < out.length; i++) {
          const m = out[i]!;
          if (m.role === "user") expect(out[i + 1]?.role).not.toBe("user");
          if (m.role === "assistant") expect(["error", "aborted"]).not.toContain(m.stopReason);
        }
        const calls = out.flatMap((m) =>
          m.role === "assistant"
            ? m.content.filter((b) => b.type === "toolCall").map((b) => (b as ToolCall).id)
            : [],
        );
        const answered = new Set(out.flatMap((m) => (m.role === "toolResult" ? [m.toolCallId] : [])));
        for (const id of calls) expect(answered.has(id)).toBe(true);
        expect(requestMessages(out)).toEqual(out);
      }),
    );
  });
});

describe("contextRequestMessages", () => {
  it("a context's summary, a failed reply and the next prompt: the summary joined to the first user message, the failure left out", () => {
    const failed: AssistantMessage = { ...assistant(""), stopReason: "error", errorMessage: "401" };
    const sent = contextRequestMessages([
      { role: "compactionSummary", summary: "S", tokensBefore: 10, timestamp: 1 },
      user("first"),
      failed,
      user("again"),
    ]);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.role).toBe("user");
    const text = JSON.stringify(sent[0]!.content);
    expect(text).toContain(JSON.stringify(COMPACTION_SUMMARY_PREFIX).slice(1, 20));
    expect(text).toContain("first\\n\\nagain");
  });
});
