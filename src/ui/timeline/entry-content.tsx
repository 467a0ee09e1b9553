/**
 * The expanded content of a timeline row: text as safe markdown, code and tool I/O as text, JSON
 * bounded in depth and length, every name and id with its hidden characters marked; a "Raw"
 * switch shows the text the model sees instead.
 */
import { branchSummaryLeftId, displayPositionId } from "../../core/session/moves.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { boundedJson } from "../common/bounded-json.ts";
import { SafeText } from "../common/safe-text.tsx";
import { useCurrentSession } from "../hooks/current-session.tsx";
import { treeData } from "../tree/tree-model.ts";
import { contentText, describeEntry } from "./entry-kind.ts";
import { Markdown } from "./lazy-markdown.tsx";
import { entryModelText } from "./model-text.ts";
import { RawToggle } from "./raw-toggle.tsx";

type Rec = Record<string, unknown>;

const MAX_TEXT_CHARS = 200_000;

/** Plain text in a <pre>, hidden characters marked, cut at MAX_TEXT_CHARS. */
export function PreText({ text, className }: { text: string; className?: string | undefined }) {
  const shown = text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}\n… (cut for display)` : text;
  return (
    <pre className={className}>
      <SafeText text={shown} />
    </pre>
  );
}

/** A value as JSON, at most 12 levels deep and 50,000 characters (says so when cut). */
export function Json({ value }: { value: unknown }) {
  const r = boundedJson(value);
  return (
    <>
      <PreText text={r.text} />
      {r.truncated && (
        <p className="meta" data-testid="json-truncated">
          Shown in part: nesting deeper than 12 levels or text past 50,000 characters is left out (Raw has the
          text the model sees).
        </p>
      )}
    </>
  );
}

function Part({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <>
      <div className="part-title">
        <SafeText text={title} />
      </div>
      {children}
    </>
  );
}

function FileLists({ details }: { details: unknown }) {
  if (!details || typeof details !== "object") return null;
  const d = details as { readFiles?: unknown; modifiedFiles?: unknown };
  const read = Array.isArray(d.readFiles) ? d.readFiles.map(String) : [];
  const modified = Array.isArray(d.modifiedFiles) ? d.modifiedFiles.map(String) : [];
  if (read.length === 0 && modified.length === 0) return <Json value={details} />;
  return (
    <>
      {read.length > 0 && (
        <Part title={`Files read (${read.length})`}>
          <PreText text={read.join("\n")} />
        </Part>
      )}
      {modified.length > 0 && (
        <Part title={`Files modified (${modified.length})`}>
          <PreText text={modified.join("\n")} />
        </Part>
      )}
    </>
  );
}

/** Extra data a tool or extension stored beside the content (not sent to the model). */
function Details({ value }: { value: unknown }) {
  if (value === undefined) return null;
  return (
    <details className="entry-details">
      <summary className="meta">Details (stored with the entry, not sent to the model)</summary>
      <Json value={value} />
    </details>
  );
}

function MessageContent({ m }: { m: Rec }) {
  switch (m.role) {
    case "user":
    case "custom":
      return (
        <>
          <Markdown text={contentText(m.content)} />
          <Details value={m.details} />
        </>
      );
    case "assistant": {
      const blocks = Array.isArray(m.content) ? (m.content as Rec[]) : [];
      return (
        <>
          {blocks.map((b, i) => {
            const key = `${i}-${String(b?.type)}`;
            if (b?.type === "thinking")
              return (
                <details key={key}>
                  <summary className="meta">Thinking</summary>
                  <PreText text={String(b.thinking ?? "")} />
                </details>
              );
            if (b?.type === "text") return <Markdown key={key} text={String(b.text ?? "")} />;
            if (b?.type === "toolCall")
              return (
                <Part key={key} title={`Tool call: ${String(b.name)}`}>
                  <Json value={b.arguments} />
                </Part>
              );
            return <Json key={key} value={b} />;
          })}
          {typeof m.errorMessage === "string" && <PreText className="error" text={m.errorMessage} />}
          <p className="meta">
            <SafeText text={`${String(m.provider ?? "")}/${String(m.model ?? "")}`} /> · stop:{" "}
            <SafeText text={String(m.stopReason ?? "")} />
            {m.usage && typeof m.usage === "object"
              ? ` · usage ${String((m.usage as Rec).totalTokens ?? "?")} tokens`
              : ""}
          </p>
        </>
      );
    }
    case "toolResult":
      return (
        <>
          <p className="meta">
            <SafeText text={String(m.toolName)} /> · call <SafeText text={String(m.toolCallId)} />
            {m.isError ? " · error" : ""}
          </p>
          <PreText className={m.isError ? "error" : undefined} text={contentText(m.content)} />
          <Details value={m.details} />
        </>
      );
    case "bashExecution":
      return (
        <>
          <PreText text={`$ ${String(m.command ?? "")}`} />
          <PreText text={String(m.output ?? "") || "(no output)"} />
          <p className="meta">
            exit {String(m.exitCode ?? "?")}
            {m.cancelled ? " · cancelled" : ""}
            {m.truncated ? " · truncated" : ""}
            {m.excludeFromContext ? " · excluded from context" : ""}
          </p>
        </>
      );
    case "compactionSummary":
    case "branchSummary":
      return <Markdown text={String(m.summary ?? "")} />;
    default:
      return <Json value={m} />;
  }
}

/** Where a branch summary's branch was left (pi 1.6's fromId; not recorded by older Cutpoint files). */
function LeftFrom({ entry }: { entry: SessionEntry }) {
  const { loaded } = useCurrentSession();
  const left = branchSummaryLeftId(entry);
  let text = "Which branch was left is not recorded (a summary written by an older Cutpoint).";
  if (left === null) text = "Written when the session was still empty.";
  else if (left !== undefined) {
    const byId = loaded ? treeData(loaded.entries).index.byId : undefined;
    const at = byId?.get(displayPositionId(left, byId) ?? "");
    const what = at ? describeEntry(at) : undefined;
    text = what
      ? `Summarizes the branch left at ${what.label.toLowerCase()} “${what.excerpt.slice(0, 80)}”.`
      : `Summarizes the branch left at ${left}.`;
  }
  return (
    <p className="meta" data-testid="branch-left">
      {text}
    </p>
  );
}

function Body({ entry }: { entry: SessionEntry }) {
  const e = entry as Rec;
  switch (entry.type) {
    case "message":
      return e.message && typeof e.message === "object" ? (
        <MessageContent m={e.message as Rec} />
      ) : (
        <Json value={e} />
      );
    case "compaction":
    case "branch_summary":
      return (
        <>
          <Markdown text={String(e.summary ?? "")} />
          {e.fromHook ? (
            <p className="meta">Summary from an extension.</p>
          ) : (
            <FileLists details={e.details} />
          )}
          {entry.type === "branch_summary" && <LeftFrom entry={entry} />}
        </>
      );
    case "custom_message":
      return (
        <>
          <Markdown text={contentText(e.content)} />
          <Details value={e.details} />
        </>
      );
    default:
      return <Json value={entry} />;
  }
}

export function EntryContent({ entry }: { entry: SessionEntry }) {
  return (
    <div className="row-detail">
      <RawToggle raw={() => entryModelText(entry)}>
        <Body entry={entry} />
      </RawToggle>
      <p className="meta">
        id <SafeText text={String(entry.id)} /> · parent <SafeText text={String(entry.parentId ?? "none")} />{" "}
        · <SafeText text={String(entry.timestamp)} />
      </p>
    </div>
  );
}
