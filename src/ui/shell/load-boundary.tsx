/**
 * Around lazily loaded parts: while their code loads, a loading line (Suspense); when it cannot
 * be fetched (no network and no cached copy), a plain message with a retry instead of a blank app,
 * and after a retry failed too, a way to reload the page (a module the part imports, once failed,
 * stays failed for the page's life in most browsers: only a new page fetches it again).
 */
import { Component, type ReactNode, Suspense } from "react";
import { type Frame, framed } from "../common/frame.tsx";

interface Props {
  /** Shown while the code loads. */
  fallback: ReactNode;
  children: ReactNode;
  /** Where the failure is shown (the part's own frame, e.g. a panel), when not in place. */
  frame?: Frame;
}

interface State {
  failed: boolean;
  /** Failures since this boundary was shown (a retry that failed again counts). */
  failures: number;
}

export class LoadBoundary extends Component<Props, State> {
  override state: State = { failed: false, failures: 0 };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  override componentDidCatch(): void {
    this.setState((s) => ({ failures: s.failures + 1 }));
  }

  override render(): ReactNode {
    if (this.state.failed) {
      const failure = (
        <p className="slot-loading" role="alert">
          This part of Cutpoint could not be shown (its code did not load: no network?).{" "}
          <button type="button" className="btn small" onClick={() => this.setState({ failed: false })}>
            Try again
          </button>
          {this.state.failures > 1 && (
            <>
              {" "}
              If it keeps failing, reload the page once you are online (your sessions are stored; a message
              you are typing is not).{" "}
              <button type="button" className="btn small" onClick={() => location.reload()}>
                Reload the page
              </button>
            </>
          )}
        </p>
      );
      return framed(this.props.frame, failure);
    }
    return <Suspense fallback={this.props.fallback}>{this.props.children}</Suspense>;
  }
}
