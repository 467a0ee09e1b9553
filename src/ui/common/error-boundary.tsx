/**
 * Error boundary of a panel or a row: when its part of the page fails to render, it shows what
 * failed (the message, "Copy details", "Try again") in its place and the rest of the app goes on.
 */
import { Component, type ErrorInfo, type ReactNode, useState } from "react";
import { type Frame, framed } from "./frame.tsx";
import { markInvisible } from "./invisible.ts";
import { SafeText } from "./safe-text.tsx";

interface Props {
  /** What this part of the page is, for the person ("the timeline", "this row"). */
  name: string;
  children: ReactNode;
  /** A compact one-line notice (for rows). */
  inline?: boolean;
  /**
   * Where the failure is shown when not in place: the part's own frame (a panel, a dialog), for a
   * part rendered in a portal, where in place is the end of the page.
   */
  frame?: Frame;
}

interface State {
  error: Error | null;
  componentStack: string;
}

function errorOf(value: unknown): Error {
  if (value instanceof Error) return value;
  return new Error(typeof value === "string" ? value : "Unknown error");
}

/** The text "Copy details" puts on the clipboard. */
export function errorDetails(name: string, error: Error, componentStack: string): string {
  return [
    `Cutpoint: ${name} failed to render`,
    `${error.name}: ${error.message}`,
    "",
    (error.stack ?? "").slice(0, 8_000),
    "",
    "Component stack:",
    componentStack.slice(0, 8_000),
  ].join("\n");
}

function Fallback({
  name,
  state,
  inline,
  onReset,
}: {
  name: string;
  state: State;
  inline: boolean;
  onReset: () => void;
}) {
  const [copied, setCopied] = useState<"" | "copied" | "failed">("");
  const error = state.error!;
  const details = errorDetails(name, error, state.componentStack);
  const copy = () => {
    // No clipboard on a page that is not secure (http on a LAN address): say it failed.
    if (typeof navigator.clipboard?.writeText !== "function") {
      setCopied("failed");
      return;
    }
    void navigator.clipboard
      .writeText(details)
      .then(() => setCopied("copied"))
      .catch(() => setCopied("failed"));
  };
  const message = markInvisible(`${error.name}: ${error.message}`.slice(0, 500));
  return (
    <div className={`error-boundary${inline ? " inline" : ""}`} role="alert" data-testid="error-boundary">
      <strong>Could not show {name}.</strong> <SafeText text={message} />
      <span className="error-boundary-actions">
        <button type="button" className="btn small" onClick={copy}>
          Copy details
        </button>
        <button type="button" className="btn small" onClick={onReset}>
          Try again
        </button>
        {copied === "copied" && <span role="status">Copied.</span>}
        {copied === "failed" && <span role="status">Could not copy: select the details below.</span>}
      </span>
      <details>
        <summary>Details</summary>
        <pre>
          <SafeText text={details} />
        </pre>
      </details>
    </div>
  );
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, componentStack: "" };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: errorOf(error) };
  }

  override componentDidCatch(_error: unknown, info: ErrorInfo): void {
    this.setState({ componentStack: info.componentStack ?? "" });
  }

  override render(): ReactNode {
    if (this.state.error === null) return this.props.children;
    return framed(
      this.props.frame,
      <Fallback
        name={this.props.name}
        state={this.state}
        inline={this.props.inline === true}
        onReset={() => this.setState({ error: null, componentStack: "" })}
      />,
    );
  }
}
