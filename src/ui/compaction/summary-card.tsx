/** A compaction's or branch summary's text over the token timeline, with a jump to where its kept range starts. */
import type { SessionEntry } from "../../core/session/types.ts";
import { SafeText } from "../common/safe-text.tsx";
import { fullTokens } from "./format-tokens.ts";
import type { CompactionModel } from "./use-compaction-model.ts";

export function SummaryCard({
  entry,
  model,
  onClose,
  onJump,
}: {
  entry: SessionEntry;
  model: CompactionModel;
  onClose: () => void;
  onJump: (index: number) => void;
}) {
  const e = entry as Record<string, unknown>;
  const keptId = typeof e.firstKeptEntryId === "string" ? e.firstKeptEntryId : undefined;
  const keptIndex = keptId ? model.path.findIndex((x) => x.id === keptId) : -1;
  return (
    <section className="cp-summary-card" aria-label="Summary">
      <header>
        <b>{entry.type === "compaction" ? "Compaction summary" : "Branch summary"}</b>
        {typeof e.tokensBefore === "number" && <span> · {fullTokens(e.tokensBefore)} tokens before</span>}
        {keptIndex >= 0 && (
          <button type="button" className="link" onClick={() => onJump(keptIndex)}>
            kept range starts at row {keptIndex + 1}
          </button>
        )}
        <button type="button" className="btn small ghost" onClick={onClose} aria-label="Close the summary">
          ✕
        </button>
      </header>
      <pre className="cp-summary-text">
        <SafeText text={String(e.summary ?? "")} />
      </pre>
    </section>
  );
}
