/**
 * Sentence rules of the offline summary: a person's request as a goal (lead-in acknowledgements
 * dropped, the first sentences kept, a capital and a full stop), what is not goal material
 * (questions, two-word commands), a rule as a standalone sentence, and an assistant's plan line
 * as a step ("Now let's check if it compiles:" → "Check if it compiles.").
 */
import { clip, sentences } from "../coverage/coverage-text.ts";

const LEAD_ACK =
  /^(?:(?:ok(?:ay)?|alright|all right|right|yes|yeah|yep|no|nope|so|btw|well|hm+|great|cool|nice|perfect|thanks|also|and|but|now|then)\b[\s,.!:;-]*)+/i;

/** A text as one sentence: whitespace collapsed, leading acknowledgements dropped, a capital, a final stop. */
export function asSentence(text: string, max = 240): string {
  let t = clip(text.replace(/\s+/g, " ").trim().replace(LEAD_ACK, ""), max);
  if (t === "") return t;
  t = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?…:)"'`]$/.test(t) ? t.replace(/:$/, ".") : `${t}.`;
}

/** The first `count` sentences of a request, as sentences. */
export function leadSentences(text: string, count: number, max: number): string {
  const all = sentences(text.split("\n")).map((x) => x.replace(LEAD_ACK, "").trim());
  // Exclamations ("That's horrible.", "Wow!") say nothing of the task.
  const said = all.filter((x) => x !== "" && !(/[.!]$/.test(x) && x.split(/\s+/).length <= 3));
  const s = said.length > 0 ? said : all.filter((x) => x !== "");
  return asSentence(s.slice(0, count).join(" "), max);
}

/** A request that only asks questions. */
export function isQuestion(text: string): boolean {
  const s = sentences(text.split("\n"));
  return s.length > 0 && s.every((x) => x.trim().endsWith("?"));
}

/** Material for a goal: a request that states work (not only questions, more than three words). */
export function isGoalMaterial(text: string): boolean {
  const words = text.replace(LEAD_ACK, "").trim().split(/\s+/).filter(Boolean);
  return words.length > 3 && !isQuestion(text);
}

/** A stated rule that reads on its own: six words or more once lead-ins are dropped, not a question. */
export function standaloneRule(text: string): string | undefined {
  const t = text.replace(LEAD_ACK, "").trim();
  if (t.endsWith("?") || t.split(/\s+/).length < 6) return undefined;
  return asSentence(t, 220);
}

const PLAN_LEAD =
  /^(?:now,?\s+|next,?\s+|then,?\s+|first,?\s+|finally,?\s+)?(?:let me|let's|let us|i'll|i will|i'm going to|we'll|we will|we need to|i need to)\s+/i;

/** An assistant's plan line as a step: "Now let's check if it compiles:" → "Check if it compiles." */
export function asStep(text: string): string {
  return asSentence(text.replace(/\*\*/g, "").replace(PLAN_LEAD, ""), 220);
}
