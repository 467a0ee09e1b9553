/**
 * "What the model sees": exactly the messages a request would carry now (the context built from
 * the path through core's contextRequestMessages: failed and stopped replies left out,
 * back-to-back user messages joined, the latest summary first as a user message), after the
 * session's system prompt, virtualized, each with its token estimate.
 */

import { useCallback, useMemo, useRef } from "react";
import { contextRequestMessages } from "../../core/agent/request-messages.ts";
import { BRANCH_SUMMARY_PREFIX, COMPACTION_SUMMARY_PREFIX } from "../../core/session/context.ts";
import type { AgentMessage, SessionEntry } from "../../core/session/types.ts";
import { SafeText } from "../common/safe-text.tsx";
import { useListVirtualizer } from "../common/use-list-virtualizer.ts";
import { sharedSessionContext } from "../hooks/session-context.ts";
import { PinsCarriedNote } from "../pins/review-notes.tsx";
import { describeEntry } from "../timeline/entry-kind.ts";
import { messageModelText } from "../timeline/model-text.ts";
import { RawToggle } from "../timeline/raw-toggle.tsx";
import { kTokens } from "./format-tokens.ts";
import type { CompactionModel } from "./use-compaction-model.ts";

const ROW = 28;
const MAX_RAW_CHARS = 500_000;

export function ModelView({ model }: { model: CompactionModel }) {
  const context = useMemo(() => sharedSessionContext(model.path), [model.path]);
  const messages = useMemo<AgentMessage[]>(() => {
    const sent = contextRequestMessages(context.messages);
    return context.systemMessage ? [context.systemMessage, ...sent] : sent;
  }, [context]);
  const first = messages[0]?.role === "system" ? messages[1] : messages[0];
  return (
    <div className="cp-tl-body">
      <p className="cp-note">
        {messages.length} messages are sent to the model
        {first && summaryOf(first)
          ? messages[0]?.role === "system"
            ? ", the system prompt first, then the compaction summary"
            : ", the compaction summary first"
          : ""}
        .
      </p>
      <PinsCarriedNote system={context.systemMessage} className="cp-note" />
      <RawToggle raw={() => contextModelText(messages)} label="Raw text">
        <MessageRows messages={messages} model={model} />
      </RawToggle>
    </div>
  );
}

/** Whether a sent message starts with a summary (a compaction's or a branch's, as a user message). */
function summaryOf(m: AgentMessage): boolean {
  if (m.role !== "user") return false;
  const text =
    typeof m.content === "string" ? m.content : m.content[0]?.type === "text" ? m.content[0].text : "";
  return text.startsWith(COMPACTION_SUMMARY_PREFIX) || text.startsWith(BRANCH_SUMMARY_PREFIX);
}

/** The whole context as the model reads it, message by message, cut at MAX_RAW_CHARS. */
function contextModelText(messages: readonly AgentMessage[]): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const part = `── ${i + 1}. ${m.role} ──\n${messageModelText(m)}`;
    parts.push(part);
    length += part.length;
    if (length > MAX_RAW_CHARS) {
      parts.push(
        `… ${messages.length - i - 1} more messages (cut at ${MAX_RAW_CHARS.toLocaleString()} characters)`,
      );
      break;
    }
  }
  return parts.join("\n\n");
}

function MessageRows({ messages, model }: { messages: readonly AgentMessage[]; model: CompactionModel }) {
  const ref = useRef<HTMLDivElement>(null);
  const getScrollElement = useCallback(() => ref.current, []);
  const estimateSize = useCallback(() => ROW, []);
  const v = useListVirtualizer({ count: messages.length, getScrollElement, estimateSize, overscan: 8 });
  const est = model.planner.estimator;
  return (
    <div ref={ref} className="cp-tl-scroll" data-testid="model-view">
      <ul className="cp-tl-inner cp-tl-list" style={{ height: v.getTotalSize() }}>
        {v.getVirtualItems().map((item) => {
          const m = messages[item.index]!;
          const d = describeEntry({
            type: "message",
            id: "",
            parentId: null,
            timestamp: "",
            message: m,
          } as SessionEntry);
          const summary = summaryOf(m);
          return (
            <li
              key={item.key}
              className={`cp-row band-${summary ? "summary" : "context"}`}
              data-role={summary ? "summary" : m.role}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <span className={`cp-gutter band-${summary ? "summary" : "context"}`} />
              <span className="cp-icon" aria-hidden="true">
                {d.icon}
              </span>
              <span className="cp-excerpt">
                <b>
                  <SafeText text={summary ? "Summary" : d.label} />
                </b>{" "}
                <SafeText text={d.excerpt} />
              </span>
              <span className="cp-total">{kTokens(est.estimateMessage(m))}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
