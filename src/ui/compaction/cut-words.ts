/** The cut in words, for its handle's aria-valuetext and what a screen reader hears when it rests: summarized, kept, the size after. */
import type { TokensAfter } from "../../core/compaction/breakdown.ts";
import type { CompactionPlan } from "../../core/compaction/plan.ts";
import { fullTokens, kTokens, plural } from "./format-tokens.ts";

/** "cut before entry 838: summarizes 14 messages, keeps 20,330 tokens in 181 messages, ≈ 22k after (at most 41k)". */
export function cutWords(
  plan: CompactionPlan,
  keptMessages: number,
  after: TokensAfter | undefined,
  byHand: boolean,
): string {
  const prefix =
    plan.isSplitTurn && plan.turnPrefixCount > 0
      ? ` and the first ${plural(plan.turnPrefixCount, "message")} of a split turn`
      : "";
  const size = after
    ? `, ≈ ${kTokens(after.total)} after${after.bound > after.total ? ` (at most ${kTokens(after.bound)})` : ""}`
    : "";
  return `cut before entry ${fullTokens(plan.firstKeptIndex + 1)}: summarizes ${plural(plan.summarizeCount, "message")}${prefix}, keeps ${fullTokens(plan.keptTokens)} tokens in ${plural(keptMessages, "message")}${size}${byHand ? ", moved by hand" : ""}`;
}
