/**
 * One message of a run as the person sees it: user text, the assistant's thinking (collapsed),
 * text (sanitized markdown once complete, plain text while it streams), tool calls with their
 * arguments, tool results (text only), and the reply's end: aborted or failed, with the message.
 */
import { memo } from "react";
import type { AgentMessage, AssistantMessage, ToolResultMessage } from "../../core/session/types.ts";
import { boundedJson } from "../common/bounded-json.ts";
import { ErrorBoundary } from "../common/error-boundary.tsx";
import { ErrorWords } from "../common/error-words.tsx";
import { SafeText } from "../common/safe-text.tsx";
import { Markdown } from "../timeline/lazy-markdown.tsx";
import { messageModelText } from "../timeline/model-text.ts";
import { RawToggle } from "../timeline/raw-toggle.tsx";

const MAX_RESULT_CHARS = 20_000;

/** A reply the person stopped: their choice, not an error (like pi, it is not sent to the model again). */
export const STOPPED_BY_YOU =
  "Stopped by you. What arrived is kept here; the model does not see it again (your next message goes out with the one before).";

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b: { type?: string; text?: unknown }) =>
      b?.type === "text" ? String(b.text ?? "") : b?.type === "image" ? "[image]" : "",
    )
    .join("\n");
}

/** Tool arguments for people: one "name: value" per argument, multi-line strings as they are. */
export function argsText(args: unknown): string {
  if (!args || typeof args !== "object" || Array.isArray(args)) return boundedJson(args, { indent: 0 }).text;
  return Object.entries(args as Record<string, unknown>)
    .map(([k, v]) => {
      if (typeof v === "string") return v.includes("\n") ? `${k}:\n${v}` : `${k}: ${v}`;
      return `${k}: ${boundedJson(v, { indent: 0 }).text}`;
    })
    .join("\n");
}

function AssistantBlocks({ message, streaming }: { message: AssistantMessage; streaming: boolean }) {
  const blocks = Array.isArray(message.content) ? message.content : [];
  const shown = (
    <>
      {blocks.map((b, i) => {
        const key = `${i}-${b.type}`;
        if (b.type === "thinking")
          return (
            <details key={key} className="agent-thinking">
              <summary>Thinking ({b.thinking.length.toLocaleString()} characters)</summary>
              <pre>
                <SafeText text={b.thinking} />
              </pre>
            </details>
          );
        if (b.type === "text")
          return streaming ? (
            <p key={key} className="agent-text-live" data-testid="live-text">
              <SafeText text={b.text} />
            </p>
          ) : (
            <Markdown key={key} text={b.text} />
          );
        if (b.type === "toolCall")
          return (
            <div key={key} className="agent-toolcall" data-testid="tool-call">
              <div className="agent-toolcall-head">
                <span aria-hidden="true">⚒</span> <SafeText text={b.name} />
              </div>
              <pre>
                <SafeText text={argsText(b.arguments)} />
              </pre>
            </div>
          );
        return null;
      })}
    </>
  );
  if (streaming) return shown;
  return (
    <RawToggle raw={() => messageModelText(message)}>
      <ErrorBoundary name="this reply" inline>
        {shown}
      </ErrorBoundary>
    </RawToggle>
  );
}

/** A failed reply's words: the plain sentence, the provider's own text one click away. */
function ReplyError({ text }: { text: string }) {
  return (
    <div className="agent-flag error" role="alert" data-testid="reply-error">
      <ErrorWords text={text} />
    </div>
  );
}

export function AssistantView({ message, streaming }: { message: AssistantMessage; streaming: boolean }) {
  return (
    <div
      className={`agent-msg assistant${streaming ? " streaming" : ""}`}
      data-testid={streaming ? "live-message" : "run-message"}
      data-role="assistant"
      data-stop={streaming ? "" : message.stopReason}
    >
      <div className="agent-msg-role">Assistant{streaming ? " · streaming…" : ""}</div>
      <AssistantBlocks message={message} streaming={streaming} />
      {!streaming && message.stopReason === "aborted" && (
        <p className="agent-flag aborted" data-testid="aborted-note">
          {message.errorMessage ?? STOPPED_BY_YOU}
        </p>
      )}
      {!streaming && message.stopReason === "error" && (
        <ReplyError text={message.errorMessage ?? "The request failed."} />
      )}
      {!streaming && message.stopReason === "length" && (
        <p className="agent-flag">The reply hit the output limit (max output tokens) and was cut off.</p>
      )}
    </div>
  );
}

function ToolResultView({ message }: { message: ToolResultMessage }) {
  const text = textOf(message.content);
  const shown = text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS)}\n…` : text;
  return (
    <details
      className={`agent-msg tool-result${message.isError ? " is-error" : ""}`}
      data-testid="tool-result"
      open={message.isError}
    >
      <summary>
        <span aria-hidden="true">↩</span> <SafeText text={message.toolName} /> result
        {message.isError ? " (error)" : ""} · {text.length.toLocaleString()} characters
      </summary>
      <pre>
        <SafeText text={shown || "(no output)"} />
      </pre>
    </details>
  );
}

export const MessageView = memo(function MessageView({ message }: { message: AgentMessage }) {
  switch (message.role) {
    case "user":
      return (
        <div className="agent-msg user" data-role="user">
          <div className="agent-msg-role">You</div>
          <p className="agent-text-live">
            <SafeText text={textOf(message.content)} />
          </p>
        </div>
      );
    case "assistant":
      return <AssistantView message={message} streaming={false} />;
    case "toolResult":
      return <ToolResultView message={message} />;
    default:
      return null;
  }
});
