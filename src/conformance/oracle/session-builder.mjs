// Small helpers that append deterministic messages to a pi 1.6 SessionManager (scenarios.mjs uses them).

/** Deterministic filler text of exactly `chars` characters, varied by `tag`. */
export function filler(tag, chars) {
  const words = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const word = `${tag}-${(i * 7919) % 1009}`;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(" ").slice(0, chars);
}

export function usage(total, input = Math.max(0, total - 100)) {
  return {
    input,
    output: total - input,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: total,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

export const tool = (name, description = `The ${name} tool.`) => ({
  name,
  description,
  parameters: { type: "object", properties: { path: { type: "string" } } },
});

const text = (value) => [{ type: "text", text: value }];

export function system(sm, { content = "", sections, toolsAdded, toolsRemoved }) {
  const message = { role: "system", content };
  if (sections !== undefined) message.sections = sections;
  if (toolsAdded !== undefined) message.toolsAdded = toolsAdded;
  if (toolsRemoved !== undefined) message.toolsRemoved = toolsRemoved;
  message.timestamp = Date.now();
  return sm.appendMessage(message);
}

export function user(sm, value) {
  return sm.appendMessage({ role: "user", content: text(value), timestamp: Date.now() });
}

/** An assistant reply. `parts`: strings (text), {thinking}, or {call: [id, name, args]}. */
export function assistant(sm, parts, options = {}) {
  const content = parts.map((part) => {
    if (typeof part === "string") return { type: "text", text: part };
    if (part.thinking !== undefined) return { type: "thinking", thinking: part.thinking };
    const [id, name, args] = part.call;
    return { type: "toolCall", id, name, arguments: args };
  });
  const hasCall = content.some((block) => block.type === "toolCall");
  const message = {
    role: "assistant",
    content,
    api: "openai-completions",
    provider: options.provider ?? "openai",
    model: options.model ?? "gpt-x",
    usage: usage(options.total ?? 0),
    stopReason: options.stopReason ?? (hasCall ? "toolUse" : "stop"),
    timestamp: Date.now(),
  };
  if (options.errorMessage) message.errorMessage = options.errorMessage;
  if (options.thinkingLevel) message.thinkingLevel = options.thinkingLevel;
  return sm.appendMessage(message);
}

export function toolResult(sm, toolCallId, toolName, value, options = {}) {
  const message = {
    role: "toolResult",
    toolCallId,
    toolName,
    content: text(value),
    isError: options.isError ?? false,
    timestamp: Date.now(),
  };
  if (options.nestedCalls) message.nestedCalls = { calls: options.nestedCalls, complete: true };
  return sm.appendMessage(message);
}

export function bash(sm, command, output, options = {}) {
  return sm.appendMessage({
    role: "bashExecution",
    command,
    output,
    exitCode: options.exitCode ?? 0,
    cancelled: options.cancelled ?? false,
    truncated: options.truncated ?? false,
    ...(options.fullOutputPath ? { fullOutputPath: options.fullOutputPath } : {}),
    ...(options.excludeFromContext ? { excludeFromContext: true } : {}),
    timestamp: Date.now(),
  });
}

/** A `message` entry with role custom (pi counts it as a turn start). */
export function customRoleMessage(sm, customType, value) {
  return sm.appendMessage({
    role: "custom",
    customType,
    content: value,
    display: true,
    timestamp: Date.now(),
  });
}

/** One user question answered by one assistant reply with usage. Returns [userId, assistantId]. */
export function turn(sm, tag, { question = 400, answer = 800, total = 0 } = {}) {
  const u = user(sm, `${tag} question: ${filler(`${tag}q`, question)}`);
  const a = assistant(sm, [`${tag} answer: ${filler(`${tag}a`, answer)}`], { total });
  return [u, a];
}

/** Cutpoint's move as it writes it: the leaf goes to the target, then a `custom` entry records the move. */
export function move(sm, targetId) {
  const fromId = sm.getLeafId();
  if (targetId === null) sm.resetLeaf();
  else sm.branch(targetId);
  return sm.appendCustomEntry("cutpoint.move", { targetId, fromId });
}
