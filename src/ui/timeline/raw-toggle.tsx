/** A "Raw" switch over a rendered view (the text the model sees, as plain text), and that plain text view. */
import { type ReactNode, useState } from "react";
import { SafeText } from "../common/safe-text.tsx";

const MAX_RAW_CHARS = 200_000;

/** Plain text exactly as given (hidden characters marked), pre-wrapped; cut at MAX_RAW_CHARS. */
export function RawText({ text }: { text: string }) {
  const cut = text.length > MAX_RAW_CHARS;
  return (
    <pre className="raw-text" data-testid="raw-text">
      <SafeText text={cut ? text.slice(0, MAX_RAW_CHARS) : text} />
      {cut && (
        <span className="md-removed">
          {`\n… cut for display: ${(text.length - MAX_RAW_CHARS).toLocaleString("en-US")} more characters`}
        </span>
      )}
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
        className="btn small raw-toggle"
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
