/**
 * The review's controls: keep-recent (slider and number), focus, the summary instructions in use
 * (with a way to change them), and the summarizer that will be used, with the endpoint's models
 * to pick from, its provider, window and price (whether its requests fit is said next to Generate:
 * summarizer-check.tsx).
 */

import { type RefObject, useEffect, useId, useState } from "react";
import { instructionsLabel } from "../../core/compaction/instructions.ts";
import { appSummarizer, appSummaryInstructions } from "../../services/compaction/summarizer-instance.ts";
import { useCompactionStore, useSessionCompaction } from "../../store/compaction-store.ts";
import { HiddenCharsNote } from "../common/safe-text.tsx";
import { useLive } from "../data/use-live.ts";
import { SummaryInstructionsButton } from "../pins/pins-controls.tsx";
import { fullTokens, kTokens, usd } from "./format-tokens.ts";
import type { SummarizerCall } from "./summarizer-call.ts";
import type { CompactionModel } from "./use-compaction-model.ts";

export function ReviewControls({
  model,
  call,
  focusRef,
}: {
  model: CompactionModel;
  call: SummarizerCall | undefined;
  /** The focus field (the review puts the focus there when the person opens it). */
  focusRef: RefObject<HTMLTextAreaElement | null>;
}) {
  const sessionId = model.sessionId;
  const s = useSessionCompaction(sessionId, (x) => x);
  const store = useCompactionStore.getState;
  const patch = (p: Parameters<ReturnType<typeof store>["patch"]>[1]) => store().patch(sessionId, p);
  const ids = { keep: useId(), focus: useId(), model: useId(), models: useId() };
  const [models, setModels] = useState<string[]>([]);
  const maxKeep = Math.max(model.keepRecentTokens, Math.ceil(model.context.tokens), 1000);

  // The endpoint's model list for the summarizer field (free text works too).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per session.
  useEffect(() => {
    let live = true;
    void appSummarizer.models(model.path).then((listed) => {
      if (live && listed) setModels(listed);
    });
    return () => {
      live = false;
    };
  }, [sessionId]);

  // The instructions the summarizer gets (the person's focus adds to them).
  const instructions = useLive(() => appSummaryInstructions.watchResolved(sessionId), [sessionId]);

  return (
    <div className="cp-controls">
      <label htmlFor={ids.keep}>Keep recent tokens</label>
      <div className="cp-keep">
        <input
          type="range"
          min={0}
          max={maxKeep}
          step={500}
          value={model.keepRecentTokens}
          onChange={(e) => store().setKeepRecent(sessionId, Number(e.target.value))}
          aria-label="Keep recent tokens (slider)"
        />
        <input
          id={ids.keep}
          type="number"
          min={0}
          step={500}
          value={model.keepRecentTokens}
          data-testid="keep-recent"
          onChange={(e) => {
            const v = Number(e.target.value);
            if (Number.isFinite(v) && v >= 0) store().setKeepRecent(sessionId, v);
          }}
        />
      </div>
      <label htmlFor={ids.focus}>Focus</label>
      <textarea
        ref={focusRef}
        id={ids.focus}
        rows={1}
        value={s.focus}
        placeholder="e.g. keep the decisions about the parser"
        data-testid="focus"
        onChange={(e) => patch({ focus: e.target.value })}
      />
      <span className="cp-label">Instructions</span>
      <span className="cp-instructions" data-testid="instructions-in-use">
        {instructions
          ? `${instructionsLabel(instructions.text)}${instructions.source === "session" ? " (this session)" : instructions.source === "global" ? " (all sessions)" : ""}`
          : "…"}{" "}
        <SummaryInstructionsButton sessionId={sessionId} scope="session" className="link" label="change…" />
      </span>
      <label htmlFor={ids.model}>Summarizer</label>
      <div className="cp-summarizer">
        <input
          id={ids.model}
          value={s.summarizerModel ?? model.summarizerModel}
          onChange={(e) => patch({ summarizerModel: e.target.value })}
          data-testid="summarizer-model"
          placeholder="none set up"
          list={ids.models}
        />
        {(s.summarizerModel ?? model.summarizerModel).trim() === "" && (
          <span className="cp-cost">
            Set one up in Settings ⚙ to generate; the offline summary needs none.
          </span>
        )}
        <HiddenCharsNote value={s.summarizerModel ?? model.summarizerModel} />
        <datalist id={ids.models}>
          {models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
        {call && call.modelId !== "" && (
          <span className="cp-cost" data-testid="summarizer-info">
            {call.provider} · window {kTokens(call.contextWindow)} · ≈ {fullTokens(call.input)} in + ≤{" "}
            {fullTokens(call.output)} out
            {call.usd !== undefined ? ` · ≈ ${usd(call.usd)}` : " · price unknown"}
          </span>
        )}
      </div>
    </div>
  );
}
