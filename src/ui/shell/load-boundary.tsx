/**
 * Around lazily loaded parts: while their code loads, a loading line (Suspense); when it cannot
 * be fetched (no network and no cached copy), a plain message with a retry instead of a blank app.
 */
import { Component, type ComponentType, type ReactNode, Suspense } from "react";

interface Props {
  /** Shown while the code loads. */
  fallback: ReactNode;
  children: ReactNode;
  /** Where the failure is shown (the part's own frame, e.g. a panel), when not in place. */
  frame?: ComponentType<{ children: ReactNode }>;
}

export class LoadBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render(): ReactNode {
    if (this.state.failed) {
      const failure = (
        <p className="slot-loading" role="alert">
          This part of Cutpoint could not be shown (its code did not load: no network?).{" "}
          <button type="button" className="btn small" onClick={() => this.setState({ failed: false })}>
            Try again
          </button>
        </p>
      );
      const Frame = this.props.frame;
      return Frame ? <Frame>{failure}</Frame> : failure;
    }
    return <Suspense fallback={this.props.fallback}>{this.props.children}</Suspense>;
  }
}
