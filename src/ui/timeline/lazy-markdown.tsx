/**
 * `<Markdown>` for every import site: the sanitizing renderer (./markdown.tsx with marked and
 * DOMPurify) is fetched on first use, so it is not part of the initial bundle. Until it is there
 * (or if it cannot be fetched), the text is shown as plain text.
 */
import { useEffect, useState } from "react";
import { SafeText } from "../common/safe-text.tsx";

type MarkdownModule = typeof import("./markdown.tsx");

let loaded: MarkdownModule | undefined;
let loading: Promise<MarkdownModule> | undefined;

/** Starts (once) fetching the renderer; resolves with it. A failed fetch may be retried. */
export function loadMarkdown(): Promise<MarkdownModule> {
  loading ??= import("./markdown.tsx").then(
    (m) => {
      loaded = m;
      return m;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

export function Markdown({ text }: { text: string }) {
  const [renderer, setRenderer] = useState(loaded);
  useEffect(() => {
    if (renderer) return;
    let live = true;
    loadMarkdown().then(
      (m) => live && setRenderer(m),
      () => undefined, // stays plain text
    );
    return () => {
      live = false;
    };
  }, [renderer]);
  if (!renderer) {
    return (
      <div className="md" data-markdown="pending" style={{ whiteSpace: "pre-wrap" }}>
        <SafeText text={text} />
      </div>
    );
  }
  return <renderer.Markdown text={text} />;
}
