/**
 * The summarizer check, next to Generate: each summary request's input plus the output it asks for
 * against the summarizer's window. When a request cannot fit, Generate is refused and the ways out
 * are offered here: a model with a larger window, another cut, masking first, the offline summary.
 */
import { fullTokens, kTokens } from "./format-tokens.ts";
import type { SummarizerCall } from "./summarizer-call.ts";

export interface WaysOut {
  onChooseModel: () => void;
  onKeepMore: () => void;
  onMask: () => void;
  onOffline: () => void;
}

export function SummarizerCheck({ id, call, ways }: { id: string; call: SummarizerCall; ways: WaysOut }) {
  if (call.modelId === "") {
    return (
      <p className="cp-check" id={id} data-testid="summarizer-check" data-fits="unknown">
        Summarizer check: no summarizer set up (Settings ⚙); the offline summary needs none.
      </p>
    );
  }
  const { fit } = call;
  const r = fit.largest;
  const parts =
    fit.requests.length > 1
      ? ` (the larger of ${fit.requests.length} requests: the split turn is summarized apart)`
      : "";
  if (fit.fits) {
    return (
      <p className="cp-check fits" id={id} data-testid="summarizer-check" data-fits="yes">
        Summarizer check: ≈ {fullTokens(r.input)} in + ≤ {fullTokens(r.output)} out = {fullTokens(r.needed)}{" "}
        of {kTokens(fit.window)} ({call.modelId}){parts}: fits, {kTokens(fit.window - r.needed)} to spare.
      </p>
    );
  }
  return (
    <div className="cp-check no" id={id} role="alert" data-testid="summarizer-check" data-fits="no">
      <p>
        <b>Generate is off:</b> the request needs ≈ {fullTokens(r.input)} in + ≤ {fullTokens(r.output)} out ={" "}
        <b>{fullTokens(r.needed)}</b>, more than {call.modelId}'s window of {fullTokens(fit.window)} (over by{" "}
        {fullTokens(fit.over)}){parts}. Ways out:
      </p>
      <p className="cp-ways">
        <button type="button" className="btn small" onClick={ways.onChooseModel}>
          A model with a larger window
        </button>
        <button type="button" className="btn small" onClick={ways.onKeepMore}>
          Keep more (summarize less)
        </button>
        <button type="button" className="btn small" onClick={ways.onMask}>
          Mask old tool outputs first
        </button>
        <button type="button" className="btn small" onClick={ways.onOffline}>
          Offline summary
        </button>
      </p>
    </div>
  );
}
