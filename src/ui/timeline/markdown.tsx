/**
 * Model and file content as SAFE markdown: marked renders, DOMPurify sanitizes (no scripts,
 * no event handlers, no iframes). Very long texts are shown as plain text.
 */
import DOMPurify from "dompurify";
import { Marked } from "marked";
import { useMemo } from "react";

const marked = new Marked({ gfm: true, breaks: false, async: false });
const MAX_MARKDOWN_CHARS = 60_000;

export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false });
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form", "input", "button", "iframe", "img"],
    FORBID_ATTR: ["style"],
  });
}

export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => (text.length > MAX_MARKDOWN_CHARS ? undefined : renderMarkdown(text)), [text]);
  if (html === undefined) return <pre>{text}</pre>;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by DOMPurify just above.
  return <div className="md" dangerouslySetInnerHTML={{ __html: html }} />;
}
