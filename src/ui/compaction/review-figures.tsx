/**
 * The review's figures: before → after (the best estimate, with its bound before a draft; a growing
 * context says so), what "after" is made of (system prompt and tools, the summary at its typical size
 * and budget or its real size, the kept part), why a cut at a split turn's start can cost less,
 * the pins carried verbatim, what is summarized and kept, the split turn, and the file lists.
 */
import { breakdownOf, type TokensAfter, turnStartTradeoff } from "../../core/compaction/breakdown.ts";
import type { CompactionPlan } from "../../core/compaction/plan.ts";
import { sizeAfterEdit } from "../../core/compaction/size-after-edit.ts";
import { TYPICAL_SUMMARY_TOKENS } from "../../core/compaction/summary-size.ts";
import { oneLine } from "../../core/session/one-line.ts";
import { markInvisible } from "../common/invisible.ts";
import { SafeText } from "../common/safe-text.tsx";
import { PinsCarriedNote } from "../pins/review-notes.tsx";
import { describeEntry } from "../timeline/entry-kind.ts";
import { fullTokens, kTokens, middleEllipsis, percent, plural } from "./format-tokens.ts";
import type { CompactionModel } from "./use-compaction-model.ts";

/**
 * "Before" is the provider's count when it reported one; "after" is the estimate the meter shows
 * once confirmed (a compaction sets the provider's count aside). What the next reply may report
 * is said beside it; why the two differ is said once, in the /context view above.
 */
function UsageNote({ model, after }: { model: CompactionModel; after: number }) {
  const next = sizeAfterEdit(breakdownOf(model.account, model.context), after);
  if (next.nextReply === undefined) return null;
  return (
    <p className="cp-note" data-testid="after-usage-note">
      Once confirmed the meter reads ≈ {fullTokens(next.estimated)} (estimated); the next reply may report
      about <b data-testid="after-reported">{fullTokens(next.nextReply)}</b>, as the provider counts{" "}
      <b data-testid="usage-difference">{fullTokens(next.beyondEstimate)}</b> more than the estimate (see
      /context above).
    </p>
  );
}

/** Why a cut at the split turn's start, which keeps more, can leave a smaller "at most". */
function TurnStartNote({ model, plan }: { model: CompactionModel; plan: CompactionPlan }) {
  const t = turnStartTradeoff(plan, model.account);
  if (!t || t.boundChange >= 0) return null;
  return (
    <span className="cp-why" data-testid="turn-start-note">
      , in a second summary with a budget of its own ({fullTokens(t.prefixBudget)}). A cut at the turn's start
      keeps these messages (≈ {fullTokens(t.prefixTokens)} tokens) and needs one summary: its "at most" is ≈{" "}
      {fullTokens(-t.boundChange)} lower, though it keeps more.
    </span>
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
  const typical = after.summarySource === "typical";
  const bounded = after.bound > after.total;
  return (
    <div className="cp-figures" data-testid="preview-figures">
      <p className="cp-numbers" data-testid="preview-numbers">
        <b data-testid="tokens-before">{fullTokens(plan.tokensBefore)}</b> → ≈{" "}
        <b data-testid="tokens-after">{fullTokens(after.total)}</b> tokens
        {bounded && (
          <>
            , at most <b data-testid="tokens-after-bound">{fullTokens(after.bound)}</b>
          </>
        )}{" "}
        {change > 0 ? (
          <span className="cp-grows" data-testid="context-grows">
            (+{fullTokens(change)}: the context grows)
          </span>
        ) : (
          <>
            (−{percent(-change, plan.tokensBefore)} %
            {after.bound > plan.tokensBefore ? "; it grows if the summary uses its whole budget" : ""})
          </>
        )}
      </p>
      <p className="cp-after-parts" data-testid="after-parts">
        after ={" "}
        {after.systemPrompt + after.tools > 0
          ? `system prompt and tools ${fullTokens(after.systemPrompt + after.tools)} + `
          : ""}
        summary{" "}
        <b data-testid="after-summary">
          {typical
            ? `≈ ${fullTokens(after.summary)} typical, ≤ ${fullTokens(after.summaryBound)} (its budget)`
            : fullTokens(after.summary)}
        </b>{" "}
        + kept {fullTokens(after.kept)}
        {byHand ? " (moved by hand)" : ""}
      </p>
      {typical && (
        <p className="cp-note" data-testid="typical-summary-note">
          Before a draft, the summary is counted at a typical {fullTokens(TYPICAL_SUMMARY_TOKENS)} tokens
          {after.summaryParts > 1 ? ` for each of its ${after.summaryParts} parts` : ""} (pi's own summaries
          run about 900 to 1,100), and "at most" at its whole output budget,{" "}
          {fullTokens(plan.summaryBudgetTokens)}; both add its file lists (
          {fullTokens(after.summaryFileLists)}).
        </p>
      )}
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
          <TurnStartNote model={model} plan={plan} />
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
