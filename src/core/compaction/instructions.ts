/**
 * The person's own summary instructions: presets, what is stored (per session and for all
 * sessions), the resolution (session > all sessions > default) and the instructions a history
 * summary request then carries (first summary or update). Pure; the focus text still adds to them
 * (prompts.ts). Split-turn prefixes keep their own instructions (a different job).
 */
import { FIRST_SUMMARY_INSTRUCTIONS, UPDATE_SUMMARY_INSTRUCTIONS } from "./prompts.ts";

export type SummaryPresetId = "standard" | "terse" | "detailed" | "keep-all";

export interface SummaryPreset {
  id: SummaryPresetId;
  label: string;
  /** One line for the picker. */
  hint: string;
  text: string;
}

const TERSE = `Summarize the conversation above as briefly as the assistant can afford: it must carry on the work from your summary alone.

## Goal
One or two lines.

## State
- At most eight bullets: what is done, what is under way, what is broken.

## Next
1. The next one to three steps.

Name files, commands and errors exactly, but only those still needed. No prose, no repetition.`;

const DETAILED = `Summarize the conversation above in depth, so that the assistant can carry on as if it had read all of it. Use these sections:

## Goal
Every goal the person stated, in their words where it matters, and how the goals changed.

## Constraints & Preferences
Every rule, convention, preference and "do not" the person gave, quoted when short.

## Progress
### Done
- [x] Each finished piece of work, with the files it touched and how it was checked
### In Progress
- [ ] Work under way, with where it stands
### Blocked
- Open problems, what was tried and what failed

## Key Decisions
- **Decision**: why it was taken, and what was rejected

## Next Steps
1. What to do next, in order, with the commands to run

## Critical Context
Values, identifiers, error messages, URLs, outputs and findings needed to continue.

Keep exact file paths, names, commands and error messages.`;

const KEEP_ALL = `${FIRST_SUMMARY_INSTRUCTIONS}

Then add two more sections, complete rather than short:

## Files
- Every file path that was read, created or changed, each with what happened to it.

## Commands
- Every command that was run, exactly as typed, each with its outcome (worked, failed with which error).`;

export const SUMMARY_PRESETS: readonly SummaryPreset[] = [
  {
    id: "standard",
    label: "Standard",
    hint: "Cutpoint's default: goal, constraints, progress, decisions, next steps, context",
    text: FIRST_SUMMARY_INSTRUCTIONS,
  },
  { id: "terse", label: "Terse", hint: "Goal, state and next steps in a few lines", text: TERSE },
  {
    id: "detailed",
    label: "Detailed",
    hint: "Every goal, rule, step and decision, with reasons",
    text: DETAILED,
  },
  {
    id: "keep-all",
    label: "Keep every path and command",
    hint: "The standard sections plus complete lists of files and commands",
    text: KEEP_ALL,
  },
];

export const DEFAULT_SUMMARY_INSTRUCTIONS = FIRST_SUMMARY_INSTRUCTIONS;

/** Stored instructions (per session, or for all sessions); absent means "inherit". */
export interface StoredInstructions {
  text: string;
}

/** Any stored value -> instructions, or undefined for nothing usable (a blank text inherits). */
export function readStoredInstructions(raw: unknown): StoredInstructions | undefined {
  const text = raw && typeof raw === "object" ? (raw as { text?: unknown }).text : undefined;
  return typeof text === "string" && text.trim() !== "" ? { text } : undefined;
}

export type InstructionsSource = "session" | "global" | "default";

export interface ResolvedInstructions {
  text: string;
  /** Where the text comes from. */
  source: InstructionsSource;
  /** The preset whose text it is, or "custom". */
  preset: SummaryPresetId | "custom";
  /** True when the text is Cutpoint's default (requests are then exactly the default ones). */
  isDefault: boolean;
}

/** The preset whose text is `text`, or "custom". */
export function presetOf(text: string): SummaryPresetId | "custom" {
  return SUMMARY_PRESETS.find((p) => p.text === text)?.id ?? "custom";
}

/** The name of the preset whose text it is, or "Your own" (for the dialog and the review). */
export function instructionsLabel(text: string): string {
  const id = presetOf(text);
  return SUMMARY_PRESETS.find((p) => p.id === id)?.label ?? "Your own";
}

/** Session override > all sessions > default. */
export function resolveSummaryInstructions(
  session: StoredInstructions | undefined,
  global: StoredInstructions | undefined,
): ResolvedInstructions {
  const source: InstructionsSource = session ? "session" : global ? "global" : "default";
  const text = session?.text ?? global?.text ?? DEFAULT_SUMMARY_INSTRUCTIONS;
  return { text, source, preset: presetOf(text), isDefault: text === DEFAULT_SUMMARY_INSTRUCTIONS };
}

/** How an update request asks to merge, before the person's own instructions. */
export const UPDATE_WITH_OWN_INSTRUCTIONS = `The conversation above continues the work described in <previous-summary>. Produce an updated summary: keep from the previous summary everything that still matters, add what the conversation adds, mark finished work as finished, and make the next steps reflect where things stand now.

Write the updated summary following these instructions:`;

/**
 * The instructions of a history summary request: for the default (or none), the default first or
 * update instructions; otherwise the person's text, after a short merge request when updating.
 */
export function historyInstructions(instructions: string | undefined, updating: boolean): string {
  if (
    instructions === undefined ||
    instructions.trim() === "" ||
    instructions === DEFAULT_SUMMARY_INSTRUCTIONS
  )
    return updating ? UPDATE_SUMMARY_INSTRUCTIONS : FIRST_SUMMARY_INSTRUCTIONS;
  return updating ? `${UPDATE_WITH_OWN_INSTRUCTIONS}\n\n${instructions}` : instructions;
}

/**
 * What to store for a scope when the person saves `text`: null (inherit) for a blank text or the
 * text the scope would inherit anyway (for all sessions: the default; for a session: the
 * instructions for all sessions, else the default); otherwise the text.
 */
export function instructionsToStore(
  scope: "global" | "session",
  text: string | null,
  global: StoredInstructions | undefined,
): StoredInstructions | null {
  if (text === null || text.trim() === "") return null;
  const inherited =
    scope === "global" ? DEFAULT_SUMMARY_INSTRUCTIONS : (global?.text ?? DEFAULT_SUMMARY_INSTRUCTIONS);
  return text === inherited ? null : { text };
}
