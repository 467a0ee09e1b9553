/**
 * The automatic compaction check of pi-session-format.md §6: after a completed run and before a
 * new prompt, compact when contextTokens > contextWindow − reserveTokens. contextTokens is the
 * provider-reported total of the last reply, or, for a reply that ended in error or reported no
 * usage, the context-size estimate when any usage exists at all. Stale usage (from before the
 * latest compaction on the path) never triggers.
 */
import { buildSessionContext } from "../session/context.ts";
import type { AgentMessage, AssistantMessage, SessionEntry } from "../session/types.ts";
import {
  type CompactionSettings,
  compactionThreshold,
  type Estimator,
  estimateContextTokens,
  hasContextUsage,
  isUsageStale,
  shouldCompact,
  usageTokens,
} from "./tokens.ts";

export type TriggerSkip = "disabled" | "aborted" | "no-usage" | "stale-usage";

export interface TriggerDecision {
  compact: boolean;
  /** The tokens compared with the threshold; null when the check was skipped. */
  contextTokens: number | null;
  threshold: number;
  skipped?: TriggerSkip;
}

/** Decides whether to compact automatically at the end of `path`. */
export function autoCompactionCheck(
  path: readonly SessionEntry[],
  contextWindow: number,
  settings: CompactionSettings,
  options: { estimator?: Estimator } = {},
): TriggerDecision {
  const threshold = compactionThreshold(contextWindow, settings.reserveTokens);
  const skip = (skipped: TriggerSkip): TriggerDecision => ({
    compact: false,
    contextTokens: null,
    threshold,
    skipped,
  });
  if (!settings.enabled) return skip("disabled");
  const messages = buildSessionContext(path).messages;
  let last: AssistantMessage | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "assistant") {
      last = m;
      break;
    }
  }
  if (last?.stopReason === "aborted") return skip("aborted");
  let usageMessage: AgentMessage | undefined;
  let tokens: number;
  if (last && hasContextUsage(last)) {
    usageMessage = last;
    tokens = usageTokens(last.usage);
  } else {
    const estimate = estimateContextTokens(
      messages,
      options.estimator ? { estimator: options.estimator } : {},
    );
    if (estimate.usageIndex === null) return skip("no-usage");
    usageMessage = messages[estimate.usageIndex];
    tokens = estimate.tokens;
  }
  if (isUsageStale(path, usageMessage)) return skip("stale-usage");
  return { compact: shouldCompact(tokens, contextWindow, settings), contextTokens: tokens, threshold };
}
