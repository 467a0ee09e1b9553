/**
 * After the timeline head's estimate: the provider's count when the meter shows it (two figures of
 * the same context, both labelled), a link to the /context view that says why they differ.
 */
import { breakdownOf } from "../../core/compaction/breakdown.ts";
import { useUiStore } from "../../store/ui-store.ts";
import type { SessionSlotProps } from "../shell/slots.ts";
import { kTokens } from "./format-tokens.ts";
import { sizeWords } from "./size-words.ts";
import { useContextSize } from "./use-compaction-model.ts";

export function ContextSizeNote({ sessionId }: SessionSlotProps) {
  const size = useContextSize(sessionId);
  const setRightOpen = useUiStore((s) => s.setRightPanelOpen);
  if (size?.context.source !== "reported") return null;
  const b = breakdownOf(size.account, size.context);
  return (
    <span data-testid="head-reported">
      · the provider reports <b>{kTokens(size.context.tokens)}</b>{" "}
      <button
        type="button"
        className="link"
        title={sizeWords(size.context, b, size.estimatorId)}
        onClick={() => setRightOpen(true)}
      >
        why two figures
      </button>
    </span>
  );
}
