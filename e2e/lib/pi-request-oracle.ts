/**
 * pi 1.6 as an oracle for a request: opens a session file with pi's SessionManager, builds its
 * context at a leaf, converts it with pi's convertToLlm and pi-ai's openai-completions
 * convertMessages (which runs pi-ai's transform-messages), and returns the chat messages pi would
 * send to an OpenAI-compatible endpoint. `joinUserTurns` then joins back-to-back user messages the
 * way Cutpoint's requests do (written here on its own, not Cutpoint's code). Undefined when pi is
 * not installed.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PI_MANAGER, PI_NODE, PI_PACKAGE, PI_ROOT, piAvailable } from "./pi-oracle.ts";

const COMPLETIONS = join(PI_ROOT, "@earendil-works/pi-ai/dist/api/openai-completions.js");
const MESSAGES = join(PI_PACKAGE, "dist/core/messages.js");

/** A chat message reduced to what both sides must agree on. */
export interface SentMessage {
  role: string;
  text: string;
  toolCalls?: { id: string; name: string; arguments: unknown }[];
  toolCallId?: string;
}

/** The chat messages pi 1.6 sends for `file` at `leafId` (the file's leaf when omitted), reduced. */
export function piRequest(file: string, leafId?: string, model = "mock-model"): SentMessage[] | undefined {
  if (!piAvailable()) return undefined;
  const script = `
    import { SessionManager } from ${JSON.stringify(PI_MANAGER)};
    import { convertToLlm } from ${JSON.stringify(MESSAGES)};
    import { convertMessages } from ${JSON.stringify(COMPLETIONS)};
    const [file, dir, leaf, id] = process.argv.slice(1);
    const sm = SessionManager.open(file, dir);
    if (leaf) sm.branch(leaf);
    const ctx = sm.buildSessionContext();
    const model = { id, name: id, api: "openai-completions", provider: "custom", baseUrl: "http://127.0.0.1/v1",
      reasoning: false, input: ["text", "image"], contextWindow: 128000, maxTokens: 16384,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
    const compat = { supportsMidConvoSystemMessages: false, supportsMidConvoToolAdditions: false,
      supportsDeveloperRole: false, requiresAssistantAfterToolResult: false, requiresNonNullAssistantContent: false,
      requiresToolResultName: false, requiresThinkingAsText: false, requiresReasoningContentOnAssistantMessages: false };
    const out = convertMessages(model, { messages: convertToLlm(ctx.messages) }, compat);
    process.stdout.write(JSON.stringify(out));`;
  const dir = mkdtempSync(join(tmpdir(), "pi-request-"));
  const out = execFileSync(PI_NODE, ["--input-type=module", "-e", script, file, dir, leafId ?? "", model], {
    encoding: "utf8",
  });
  return reduceChat(JSON.parse(out) as unknown[]);
}

type Rec = Record<string, unknown>;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as Rec[])
    .map((p) => (p.type === "text" ? String(p.text) : p.type === "image_url" ? "[image]" : ""))
    .join("\n");
}

/** Chat messages (either side's request body) reduced to roles, texts, calls and call ids. */
export function reduceChat(messages: readonly unknown[]): SentMessage[] {
  return (messages as Rec[]).map((m) => {
    const out: SentMessage = { role: String(m.role), text: textOf(m.content) };
    if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0)
      out.toolCalls = (m.tool_calls as Rec[]).map((c) => {
        const f = c.function as Rec;
        return { id: String(c.id), name: String(f.name), arguments: JSON.parse(String(f.arguments)) };
      });
    if (typeof m.tool_call_id === "string") out.toolCallId = m.tool_call_id;
    return out;
  });
}

/** Back-to-back user messages joined into one, their texts separated by a blank line. */
export function joinUserTurns(messages: readonly SentMessage[]): SentMessage[] {
  const out: SentMessage[] = [];
  for (const m of messages) {
    const last = out[out.length - 1];
    if (last && last.role === "user" && m.role === "user")
      out[out.length - 1] = { ...last, text: `${last.text}\n\n${m.text}` };
    else out.push({ ...m });
  }
  return out;
}

/** Whether two user messages follow each other. */
export const twoUsersInARow = (messages: readonly { role: string }[]): boolean =>
  messages.some((m, i) => m.role === "user" && messages[i + 1]?.role === "user");
