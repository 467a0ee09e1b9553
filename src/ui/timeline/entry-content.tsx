/** The expanded content of a timeline row: text as safe markdown, code and tool I/O as text. */
import type { SessionEntry } from "../../core/session/types.ts";
import { contentText } from "./entry-kind.ts";
import { Markdown } from "./lazy-markdown.tsx";

type Rec = Record<string, unknown>;

function Json({ value }: { value: unknown }) {
  return <pre>{JSON.stringify(value, null, 2)}</pre>;
}

function Part({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <>
      <div className="part-title">{title}</div>
      {children}
    </>
  );
}

function FileLists({ details }: { details: unknown }) {
  if (!details || typeof details !== "object") return null;
  const d = details as { readFiles?: unknown; modifiedFiles?: unknown };
  const read = Array.isArray(d.readFiles) ? (d.readFiles as string[]) : [];
  const modified = Array.isArray(d.modifiedFiles) ? (d.modifiedFiles as string[]) : [];
  if (read.length === 0 && modified.length === 0) return <Json value={details} />;
  return (
    <>
      {read.length > 0 && (
        <Part title={`Files read (${read.length})`}>
          <pre>{read.join("\n")}</pre>
        </Part>
      )}
      {modified.length > 0 && (
        <Part title={`Files modified (${modified.length})`}>
          <pre>{modified.join("\n")}</pre>
        </Part>
      )}
    </>
  );
}

function MessageContent({ m }: { m: Rec }) {
  switch (m.role) {
    case "user":
    case "custom":
      return <Markdown text={contentText(m.content)} />;
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
                  <pre>{String(b.thinking ?? "")}</pre>
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
          {typeof m.errorMessage === "string" && <p className="error">{m.errorMessage}</p>}
          <p className="meta">
            {String(m.provider ?? "")}/{String(m.model ?? "")} · stop: {String(m.stopReason ?? "")}
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
            {String(m.toolName)} · call {String(m.toolCallId)}
            {m.isError ? " · error" : ""}
          </p>
          <pre className={m.isError ? "error" : undefined}>{contentText(m.content)}</pre>
        </>
      );
    case "bashExecution":
      return (
        <>
          <pre>$ {String(m.command ?? "")}</pre>
          <pre>{String(m.output ?? "") || "(no output)"}</pre>
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

export function EntryContent({ entry }: { entry: SessionEntry }) {
  const e = entry as Rec;
  let body: React.ReactNode;
  switch (entry.type) {
    case "message":
      body =
        e.message && typeof e.message === "object" ? (
          <MessageContent m={e.message as Rec} />
        ) : (
          <Json value={e} />
        );
      break;
    case "compaction":
    case "branch_summary":
      body = (
        <>
          <Markdown text={String(e.summary ?? "")} />
          {e.fromHook ? (
            <p className="meta">Summary from an extension.</p>
          ) : (
            <FileLists details={e.details} />
          )}
        </>
      );
      break;
    case "custom_message":
      body = <Markdown text={contentText(e.content)} />;
      break;
    default:
      body = <Json value={entry} />;
  }
  return (
    <div className="row-detail">
      {body}
      <p className="meta">
        id {entry.id} · parent {entry.parentId ?? "none"} · {entry.timestamp}
      </p>
    </div>
  );
}
