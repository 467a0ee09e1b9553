/** The warning shown before Generate when the summarizer's input does not fit its window, with the ways out. */
import { fullTokens } from "./format-tokens.ts";
import type { summarizerCall } from "./summarizer-call.ts";

export function TooBigWarning({
  call,
  onChooseModel,
  onKeepMore,
  onOffline,
}: {
  call: ReturnType<typeof summarizerCall>;
  onChooseModel: () => void;
  onKeepMore: () => void;
  onOffline: () => void;
}) {
  return (
    <div className="cp-warn" role="alert" data-testid="summarizer-too-big">
      <p>
        The summarizer's input (≈ {fullTokens(call.input)} tokens) is larger than {call.modelId || "its"}{" "}
        window ({fullTokens(call.contextWindow)}). Generate would fail. Ways out:
      </p>
      <ul>
        <li>
          <button type="button" className="link" onClick={onChooseModel}>
            choose a model with a larger window
          </button>
        </li>
        <li>
          <button type="button" className="link" onClick={onKeepMore}>
            move the cut back (keep more, summarize less)
          </button>
        </li>
        <li>
          <button type="button" className="link" onClick={onOffline}>
            use the offline summary
          </button>
        </li>
      </ul>
    </div>
  );
}
