/**
 * The review's figures: before → after (measured like before; a growing context says so), what
 * "after" is made of (system prompt and tools, the summary's budget or real size, the kept part),
 * the pins carried verbatim, what is summarized and kept, the split turn, and the file lists.
 */
import { breakdownOf, type TokensAfter } from "../../core/compaction/breakdown.ts";
import type { CompactionPlan } from "../../core/compaction/plan.ts";
import { oneLine } from "../../core/session/one-line.ts";
import { markInvisible } from "../common/invisible.ts";
import { SafeText } from "../common/safe-text.tsx";
import { PinsCarriedNote } from "../pins/review-notes.tsx";
import { describeEntry } from "../timeline/entry-kind.ts";
import { fullTokens, kTokens, middleEllipsis, percent, plural } from "./format-tokens.ts";
import type { CompactionModel } from "./use-compaction-model.ts";

/**
 * "Before" is the provider's count when it reported one; "after" can only be estimated. What the
 * provider counted beyond the estimate of the same context (a system prompt and tools that the
 * session does not record, the estimate's own error) is said, with what the next reply may report.
 */
function UsageNote({ model, after }: { model: CompactionModel; after: number }) {
  const { usageDifference } = breakdownOf(model.account, model.context);
  if (usageDifference <= 0) return null;
  return (
    <p className="cp-note" data-testid="after-usage-note">
      The provider counted <b data-testid="usage-difference">{fullTokens(usageDifference)}</b> more than this
      estimate (a system prompt and tools the session does not hold, the estimate's error): the next reply may
      report about <b data-testid="after-reported">{fullTokens(after + usageDifference)}</b>.
    </p>
  );
}

export function ReviewFigures({
  model,
  plan,
  after,
  byHand,
}: {
  model: CompactionModel;
  plan: CompactionPlan;
  after: TokensAfter;
  byHand: boolean;
}) {
  const firstKept = model.path[plan.firstKeptIndex];
  const firstKeptText = firstKept ? describeEntry(firstKept) : undefined;
  const change = after.total - plan.tokensBefore;
  return (
    <div className="cp-figures" data-testid="preview-figures">
      <p className="cp-numbers" data-testid="preview-numbers">
        <b data-testid="tokens-before">{fullTokens(plan.tokensBefore)}</b> → ≈{" "}
        <b data-testid="tokens-after">{fullTokens(after.total)}</b> tokens{" "}
        {change > 0 ? (
          <span className="cp-grows" data-testid="context-grows">
            (+{fullTokens(change)}: the context grows)
          </span>
        ) : (
          <>(−{percent(-change, plan.tokensBefore)} %)</>
        )}
      </p>
      <p className="cp-after-parts" data-testid="after-parts">
        after ={" "}
        {after.systemPrompt + after.tools > 0
          ? `system prompt and tools ${fullTokens(after.systemPrompt + after.tools)} + `
          : ""}
        summary{" "}
        <b data-testid="after-summary">
          {after.summarySource === "budget"
            ? `≤ ${fullTokens(after.summary)} (its budget)`
            : fullTokens(after.summary)}
        </b>{" "}
        + kept {fullTokens(after.kept)}
        {byHand ? " (moved by hand)" : ""}
      </p>
      <UsageNote model={model} after={after.total} />
      <PinsCarriedNote system={plan.systemMessage} className="cp-note" />
      <ul className="cp-facts">
        <li>
          Summarizes <b data-testid="summarize-count">{plural(plan.summarizeCount, "message")}</b> (≈{" "}
          {kTokens(plan.summarizedTokens)} tokens)
        </li>
        <li>
          Keeps {fullTokens(plan.keptTokens)}
          {byHand ? " (moved by hand)" : ""} from{" "}
          <q title={markInvisible(firstKeptText?.excerpt ?? "")}>
            <SafeText text={`${firstKeptText?.label}: ${oneLine(firstKeptText?.excerpt ?? "", 50)}`} />
          </q>
        </li>
        <li data-testid="split-turn">
          {plan.isSplitTurn && plan.turnPrefixCount > 0
            ? `Splits a turn: its first ${plural(plan.turnPrefixCount, "message")} summarized separately`
            : "Does not split a turn"}
        </li>
      </ul>
      <details className="cp-files">
        <summary>
          Files read ({fullTokens(plan.fileOps.readFiles.length)}) and modified (
          {fullTokens(plan.fileOps.modifiedFiles.length)})
        </summary>
        <div className="cp-file-lists">
          <ul aria-label="Files read">
            {plan.fileOps.readFiles.map((f) => (
              <li key={f} title={markInvisible(f)}>
                <SafeText text={middleEllipsis(f)} />
              </li>
            ))}
          </ul>
          <ul aria-label="Files modified">
            {plan.fileOps.modifiedFiles.map((f) => (
              <li key={f} title={markInvisible(f)}>
                ✎ <SafeText text={middleEllipsis(f)} />
              </li>
            ))}
          </ul>
        </div>
      </details>
    </div>
  );
}
