/**
 * Markdown to safe HTML: marked renders (GFM), sanitize-html.ts keeps only inert markup. Texts
 * too long for markdown, and texts marked cannot render (nesting deep enough to exhaust the
 * stack), give undefined: the caller shows them as plain text.
 */
import { Marked } from "marked";
import { sanitizeHtml } from "./sanitize-html.ts";

const marked = new Marked({ gfm: true, breaks: false, async: false });
export const MAX_MARKDOWN_CHARS = 60_000;

export { sanitizeHtml };

export function renderMarkdown(text: string): string | undefined {
  if (text.length > MAX_MARKDOWN_CHARS) return undefined;
  let html: string;
  try {
    html = marked.parse(text, { async: false });
  } catch {
    return undefined;
  }
  return sanitizeHtml(html);
}
