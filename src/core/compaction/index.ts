/** The compaction engine (pure): tokens, plan, summaries, branch summaries, overflow. */

export * from "../coverage/coverage.ts";
export * from "../coverage/coverage-add.ts";
export * from "../coverage/coverage-details.ts";
export * from "../coverage/coverage-probes.ts";
export * from "./branch.ts";
export * from "./cut.ts";
export * from "./cut-points.ts";
export * from "./decide.ts";
export * from "./entry-messages.ts";
export * from "./file-ops.ts";
export * from "./masking.ts";
export * from "./offline-summary.ts";
export * from "./overflow.ts";
export * from "./path-index.ts";
export * from "./pi-plan-row.ts";
export * from "./plan.ts";
export * from "./planner.ts";
export * from "./prompts.ts";
export * from "./serialize.ts";
export * from "./summarize.ts";
export * from "./tokens.ts";
// tokenizer-estimator.ts is NOT re-exported: import it directly (it pulls gpt-tokenizer lazily,
// but keeping it out of the barrel keeps its module graph out of the first bundle too).
