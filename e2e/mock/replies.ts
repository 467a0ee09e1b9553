/** Turns a ReplySpec into the exact Chat Completions objects (stream chunks or a whole completion). */
import type { ReplySpec } from "./types.ts";

let counter = 0;
const nextId = () => `chatcmpl-mock${(++counter).toString(36)}`;

function lastUserText(request: Record<string, unknown>): string {
  const messages = Array.isArray(request.messages) ? (request.messages as Record<string, unknown>[]) : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "user") continue;
    if (typeof m.content === "string") return m.content;
    if (Array.isArray(m.content)) {
      return (m.content as { type?: string; text?: string }[])
        .filter((p) => p.type === "text")
        .map((p) => p.text ?? "")
        .join("");
    }
  }
  return "";
}

/** The reply used when a key's queue is empty: a short text echoing the last user message. */
export function defaultReply(request: Record<string, unknown>): ReplySpec {
  return { text: ["Echo: ", lastUserText(request)] };
}

const textChunks = (spec: ReplySpec): string[] =>
  spec.text === undefined ? [] : typeof spec.text === "string" ? [spec.text] : spec.text;

const argsText = (args: Record<string, unknown> | string) =>
  typeof args === "string" ? args : JSON.stringify(args);

function usageOf(spec: ReplySpec, request: Record<string, unknown>) {
  const completionChars =
    textChunks(spec).join("").length +
    (spec.reasoning ?? []).join("").length +
    (spec.toolCalls ?? []).reduce((n, c) => n + c.name.length + argsText(c.arguments).length, 0);
  const prompt = spec.usage?.prompt_tokens ?? Math.ceil(JSON.stringify(request.messages ?? []).length / 4);
  const completion = spec.usage?.completion_tokens ?? Math.ceil(completionChars / 4);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: spec.usage?.cached_tokens ?? 0 },
  };
}

const finishOf = (spec: ReplySpec) => spec.finishReason ?? (spec.toolCalls?.length ? "tool_calls" : "stop");

/** Splits a string into n roughly equal fragments (at least one). */
function fragments(text: string, n: number): string[] {
  if (text.length === 0) return [""];
  const size = Math.max(1, Math.ceil(text.length / n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The SSE data objects of a streamed reply, in order (without the final [DONE]). */
export function buildChunks(
  spec: ReplySpec,
  model: string,
  request: Record<string, unknown>,
  includeUsage: boolean,
): object[] {
  const id = nextId();
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: object, finish: string | null = null) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    system_fingerprint: "fp_mock",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const out: object[] = [chunk({ role: "assistant", content: "" })];
  const field = spec.reasoningField ?? "reasoning_content";
  for (const r of spec.reasoning ?? []) out.push(chunk({ [field]: r }));
  for (const t of textChunks(spec)) out.push(chunk({ content: t }));
  (spec.toolCalls ?? []).forEach((call, index) => {
    out.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id ?? `call_${index + 1}`,
            type: "function",
            function: { name: call.name, arguments: "" },
          },
        ],
      }),
    );
    for (const frag of fragments(argsText(call.arguments), 3)) {
      out.push(chunk({ tool_calls: [{ index, function: { arguments: frag } }] }));
    }
  });
  out.push(chunk({}, finishOf(spec)));
  if (includeUsage) {
    out.push({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      choices: [],
      usage: usageOf(spec, request),
    });
  }
  return out;
}

/** A whole (non-streamed) chat.completion object. */
export function buildCompletion(spec: ReplySpec, model: string, request: Record<string, unknown>): object {
  const text = textChunks(spec).join("");
  const message: Record<string, unknown> = {
    role: "assistant",
    content: text === "" && spec.toolCalls?.length ? null : text,
  };
  if (spec.reasoning?.length) message[spec.reasoningField ?? "reasoning_content"] = spec.reasoning.join("");
  if (spec.toolCalls?.length) {
    message.tool_calls = spec.toolCalls.map((c, i) => ({
      id: c.id ?? `call_${i + 1}`,
      type: "function",
      function: { name: c.name, arguments: argsText(c.arguments) },
    }));
  }
  return {
    id: nextId(),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishOf(spec) }],
    usage: usageOf(spec, request),
  };
}
