/**
 * Model and file content as SAFE markdown: marked renders, sanitize-html.ts keeps only inert tags
 * and attributes (nothing loads, restyles or hides). Very long texts, and texts marked cannot
 * render, are shown as plain text. `RawToggle` switches a view to the text the model sees.
 */
import { Marked } from "marked";
import { type ReactNode, useMemo, useState } from "react";
import { SafeText } from "../common/safe-text.tsx";
import { sanitizeHtml } from "../common/sanitize-html.ts";

const marked = new Marked({ gfm: true, breaks: false, async: false });
const MAX_MARKDOWN_CHARS = 60_000;

/** Safe HTML for markdown `text`, or undefined when it is too long or cannot be rendered. */
export function renderMarkdown(text: string): string | undefined {
  if (text.length > MAX_MARKDOWN_CHARS) return undefined;
  try {
    return sanitizeHtml(marked.parse(text, { async: false }));
  } catch {
    return undefined; // e.g. nesting so deep that the parser runs out of stack
  }
}

export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  if (html === undefined)
    return (
      <pre className="md-plain">
        <SafeText text={text} />
      </pre>
    );
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by sanitizeHtml just above.
  return <div className="md" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** Plain text exactly as given (hidden characters marked), pre-wrapped. */
export function RawText({ text }: { text: string }) {
  return (
    <pre className="raw-text" data-testid="raw-text">
      <SafeText text={text} />
    </pre>
  );
}

/**
 * A "Raw" switch over a rendered view: off shows `children`, on shows `raw` (what the model sees)
 * as plain text. The switch belongs to this view only.
 */
export function RawToggle({
  raw,
  children,
  label,
}: {
  /** The model's text, computed only when the switch is on. */
  raw: () => string;
  children: ReactNode;
  label?: string;
}) {
  const [on, setOn] = useState(false);
  return (
    <div className="raw-toggle-view">
      <button
        type="button"
        className="btn small ghost raw-toggle"
        aria-pressed={on}
        title="Show exactly the text the model sees, as plain text"
        onClick={() => setOn(!on)}
      >
        {label ?? "Raw"}
      </button>
      {on ? <RawText text={raw()} /> : children}
    </div>
  );
}
