/**
 * A page harness for e2e/content-views.spec.ts: mounts the app's own content components (the
 * error boundary, an entry's content) with React into a blank page, without the rest of the app.
 */
import { createRoot } from "react-dom/client";
import type { SessionEntry } from "../../src/core/session/types.ts";
import { ErrorBoundary } from "../../src/ui/common/error-boundary.tsx";
import { EntryContent } from "../../src/ui/timeline/entry-content.tsx";

function Bomb({ message }: { message: string }): never {
  throw new Error(message);
}

/** A part that fails to render beside one that works, each in its boundary. */
export function mountFailing(root: HTMLElement, message: string): void {
  createRoot(root).render(
    <>
      <ErrorBoundary name="the broken part">
        <Bomb message={message} />
      </ErrorBoundary>
      <ErrorBoundary name="the working part">
        <p id="alive">still here</p>
      </ErrorBoundary>
    </>,
  );
}

/** An entry's expanded content, the way a timeline row shows it. */
export function mountEntry(root: HTMLElement, entry: SessionEntry): void {
  createRoot(root).render(
    <ErrorBoundary name="this entry's content" inline>
      <EntryContent entry={entry} />
    </ErrorBoundary>,
  );
}

/** An object nested `depth` levels deep (built in the page: JSON.parse of such text is slow in tests). */
export function deepObject(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: "bottom" };
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}
