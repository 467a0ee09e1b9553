/**
 * Model and file content as SAFE markdown (common/render-markdown.ts: nothing loads, restyles or
 * hides); very long texts, and texts marked cannot render, as plain text. Loaded on demand
 * through ./lazy-markdown.tsx.
 */
import { useMemo } from "react";
import { renderMarkdown } from "../common/render-markdown.ts";
import { SafeText } from "../common/safe-text.tsx";

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
