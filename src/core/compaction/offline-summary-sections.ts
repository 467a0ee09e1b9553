/**
 * The history part of the offline summary, section by section in pi's structure (Goal;
 * Constraints & Preferences; Progress: Done / In Progress / Blocked; Key Decisions; Next Steps;
 * Critical Context), written as a handoff: the task with the latest intent first, the person's
 * rules as sentences, outcomes and the files changed under the request they served, only the
 * failures nothing fixed later, the open request and the assistant's last plan as steps. With a
 * previous summary, each section updates the previous one's (one goal, one list of progress).
 * Every section is bounded, so the summary's length does not grow with the range.
 */
import type { CoverageCandidate } from "../coverage/coverage-extract.ts";
import { clip, codeSpan, normalizeKey, PROJECT_ROOT_LABEL } from "../coverage/coverage-text.ts";
import type { Digest } from "./offline-summary-digest.ts";
import type { PreviousSummary } from "./offline-summary-previous.ts";
import {
  asSentence,
  asStep,
  isGoalMaterial,
  isQuestion,
  leadSentences,
  standaloneRule,
} from "./offline-summary-sentences.ts";
import { openFailures, type ToolOutcome } from "./tool-outcomes.ts";

export interface SectionInput {
  digest: Digest;
  items: readonly CoverageCandidate[];
  previous: PreviousSummary | undefined;
  /** Share of each list's usual length to show (1: all; less when the summary is over its bound). */
  scale?: number;
}

/** The history part's bound in characters (a model's summary of a long session is about 3,000 to 5,000). */
export const HISTORY_MAX_CHARS = 5400;

/** `n` scaled down (one at least). */
function cap(input: SectionInput, n: number): number {
  return Math.max(1, Math.round(n * (input.scale ?? 1)));
}

const VERIFY =
  /^(?:npm (?:run \S+|test|t)|pnpm \S+|yarn \S+|bun \S+|npx (?:tsc|vitest|jest|biome|eslint|playwright|tsx)\b.*|tsc\b.*|vitest\b.*|jest\b.*|cargo (?:test|build|check|clippy)|go (?:test|build|vet)|make\b.*|pytest\b.*|python3? -m pytest.*)$/;
const MAX_GROUPS = 6;
const MAX_FILES = 24;

function bullets(lines: readonly string[], empty: string): string[] {
  return lines.length > 0 ? lines.map((l) => `- ${l}`) : [`- ${empty}`];
}

/** Distinct lines (by normalised text), first kept, at most `max` (the latest when `latest`). */
function distinct(lines: readonly string[], max: number, latest = false): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const l of lines) {
    const k = normalizeKey(l);
    if (k === "" || seen.has(k)) continue;
    seen.add(k);
    out.push(l);
  }
  return latest ? out.slice(-max) : out.slice(0, max);
}

/** The directory all absolute paths share (two segments at least), or undefined. */
export function projectRoot(paths: readonly string[]): string | undefined {
  const abs = paths.filter((p) => p.startsWith("/"));
  if (abs.length === 0) return undefined;
  let parts = abs[0]!.split("/").slice(0, -1);
  for (const p of abs.slice(1)) {
    const q = p.split("/");
    let i = 0;
    while (i < parts.length && i < q.length - 1 && parts[i] === q[i]) i++;
    parts = parts.slice(0, i);
  }
  return parts.length >= 3 ? parts.join("/") : undefined;
}

function relative(path: string, root: string | undefined): string {
  return root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

/** A line with every absolute path under the root written relative to it. */
function relativeIn(line: string, root: string | undefined): string {
  return root ? line.split(`${root}/`).join("") : line;
}

/** A request that sets work: goal material whose first sentence is not a question. */
function setsWork(r: string): boolean {
  return isGoalMaterial(r) && !/^[^.!?\n]*\?/.test(r.trim());
}

function goalSection({ digest: d, previous }: SectionInput): string[] {
  const goals = d.requests.filter(setsWork);
  const latest = goals.at(-1);
  const out: string[] = [];
  if (latest) out.push(leadSentences(latest, 2, 300));
  // The main task: the previous summary's goal, else the fullest request stated before the latest.
  const main = previous?.goal.length
    ? previous.goal.join(" ")
    : goals.slice(0, -1).sort((a, b) => b.length - a.length)[0];
  if (main) out.push(`${previous?.goal.length ? "Overall" : "The task"}: ${leadSentences(main, 2, 300)}`);
  if (out.length === 0) {
    const last = d.requests.at(-1);
    out.push(
      last
        ? `Answer the person's question: ${asSentence(last, 240)}`
        : "No request from the person in this part.",
    );
  }
  return out;
}

function constraintLines({ items, previous }: SectionInput): string[] {
  const rules = items
    .filter((i) => i.kind === "instruction")
    .map((i) => standaloneRule(i.text))
    .filter((r): r is string => r !== undefined);
  return distinct([...(previous?.constraints ?? []), ...rules], 10);
}

/** The last outcome of each verification command (check, test, build) that nothing failed after. */
function passingChecks(outcomes: readonly ToolOutcome[]): string[] {
  const last = new Map<string, boolean>();
  for (const o of outcomes) if (o.command && VERIFY.test(o.command)) last.set(o.command, o.ok);
  return [...last].filter(([, ok]) => ok).map(([c]) => `${codeSpan(c)} passes (its last run).`);
}

/** Files changed, under the request they served (a request clipped to a short quote). */
function filesByRequest(d: Digest, root: string | undefined): string[] {
  const groups = new Map<number, string[]>();
  // Under the request that set the work (an acknowledgement or a question does not).
  const served = (i: number) => {
    let k = i;
    while (k > 0 && !setsWork(d.requests[k]!)) k--;
    return k;
  };
  for (const t of d.touched)
    groups.set(served(t.request), [
      ...(groups.get(t.request) ?? []),
      `${codeSpan(relative(t.path, root))}${t.op === "written" ? " (written)" : ""}`,
    ]);
  const out: string[] = [];
  let shown = 0;
  const entries = [...groups].slice(-MAX_GROUPS);
  for (const [request, files] of entries) {
    const room = Math.max(1, Math.floor((MAX_FILES - shown) / Math.max(1, entries.length - out.length)));
    const kept = files.slice(0, room);
    shown += kept.length;
    const more = files.length > kept.length ? ` and ${files.length - kept.length} more` : "";
    const what = request >= 0 ? `For “${clip(d.requests[request]!.replace(/\s+/g, " "), 90)}”` : "Changed";
    out.push(`${what}: ${kept.join(", ")}${more}.`);
  }
  const hidden = d.touched.length - shown;
  if (groups.size > MAX_GROUPS && hidden > 0)
    out.unshift(`${d.touched.length} files changed in all; the latest:`);
  return out;
}

function failureLine(o: ToolOutcome): string {
  const what = o.command ? `${codeSpan(o.command)} fails` : `${o.target} failed`;
  return `${what}${o.error ? `: ${clip(o.error, 200)}` : "."}`;
}

function progressSection(input: SectionInput, root: string | undefined): string[] {
  const d = input.digest;
  const done: string[] = [];
  const earlier = (input.previous?.done ?? []).map((l) =>
    relativeIn(l, root).replace(/\s*(?:—\s*)?(?:✅|✓|done)$/i, ""),
  );
  if (earlier.length > 0) done.push(`Earlier: ${clip(earlier.join("; "), cap(input, 500))}`);
  for (const b of d.branches) done.push(`Created branch ${codeSpan(b)}.`);
  done.push(...filesByRequest(d, root));
  for (const c of d.commits.slice(-4)) done.push(`Committed: “${c}”.`);
  done.push(...passingChecks(d.outcomes));
  const open = d.open ? d.requests.at(-1) : undefined;
  const out = [
    "### Done",
    ...bullets(distinct(done, 40), "Nothing recorded as finished.").map((l) => l.replace(/^- /, "- [x] ")),
  ];
  out.push("", "### In Progress");
  out.push(open ? `- [ ] ${leadSentences(open, 2, 300)}` : "- Nothing open at the end of this part.");
  out.push("", "### Blocked", ...bullets(openFailures(d.outcomes).map(failureLine), "Nothing."));
  return out;
}

const STEERING =
  /\b(?:instead|rather|keep|never|always|should|must|make it so|i want|i would|i'd|prefer|no need|not needed|leave)\b/i;

/** Requests of the person that steer the work (not the goal itself): their calls, as decisions. */
function steeringLines(d: Digest): string[] {
  const goal = d.requests.filter(setsWork).at(-1);
  return d.requests
    .filter((r) => r !== goal && STEERING.test(r) && r.split(/\s+/).length > 5)
    .slice(-4)
    .map((r) => `The person's call: ${leadSentences(r, 2, 220)}`);
}

function decisionLines(input: SectionInput): string[] {
  const { digest: d, previous } = input;
  const made = [...d.decisions.map((x) => asSentence(x, 240)), ...steeringLines(d)];
  return distinct([...(previous?.decisions ?? []).slice(-5), ...made], cap(input, 10), true);
}

function nextSteps({ digest: d, items }: SectionInput): string[] {
  const steps: string[] = [];
  const open = d.open ? d.requests.at(-1) : undefined;
  if (open)
    steps.push(
      isQuestion(open)
        ? `Answer the person's question: ${leadSentences(open, 2, 300)}`
        : `Finish the person's last request: ${leadSentences(open, 2, 300)}`,
    );
  for (const p of d.lastPlan) steps.push(asStep(p));
  for (const t of items.filter((i) => i.kind === "todo").slice(-4)) steps.push(asSentence(t.text, 200));
  for (const f of openFailures(d.outcomes).slice(-2)) steps.push(`Fix: ${failureLine(f)}`);
  const out = distinct(steps, 8);
  if (out.length === 0) return ["1. Wait for the person's next request."];
  return out.map((s, i) => `${i + 1}. ${s}`);
}

/** Paths without those a longer one in the list ends with (`core/setup.ts` beside `src/core/setup.ts`). */
function withoutSuffixes(paths: readonly string[]): string[] {
  return paths.filter((p) => !paths.some((q) => q !== p && q.endsWith(`/${p.replace(/^\.\//, "")}`)));
}

function list(label: string, names: readonly string[]): string[] {
  return names.length > 0 ? [`${label}: ${names.map(codeSpan).join(", ")}.`] : [];
}

function criticalSection(input: SectionInput, root: string | undefined): string[] {
  const d = input.digest;
  const out: string[] = [];
  if (root) out.push(`${PROJECT_ROOT_LABEL}: ${codeSpan(root)} (paths here are relative to it).`);
  const touched = new Set(d.touched.map((t) => t.path));
  const mentionedElsewhere = (p: string) =>
    [...touched, ...d.reads].some((t) => t === p || t.endsWith(`/${p.replace(/^\.\//, "")}`));
  const shown = new Set<string>();
  for (const t of d.touched.slice(-8)) {
    const declared = d.defines.get(t.path) ?? [];
    const ranked = declared
      .map((n, i) => ({ n, i, w: d.names.weight(n) }))
      .sort((a, b) => b.w - a.w || a.i - b.i)
      .slice(0, cap(input, 28))
      .map((x) => x.n);
    for (const n of ranked) shown.add(n);
    if (ranked.length > 0)
      out.push(
        `${codeSpan(relative(t.path, root))} defines ${ranked.map(codeSpan).join(", ")}${declared.length > ranked.length ? " …" : ""}.`,
      );
  }
  out.push(
    ...list(
      "Names in play",
      d.names.identifiers(cap(input, 20), (n) => shown.has(n)),
    ),
  );
  out.push(
    ...list(
      "Files discussed",
      withoutSuffixes(d.names.paths(cap(input, 24), mentionedElsewhere)).map((p) => relative(p, root)),
    ),
  );
  out.push(
    ...list(
      "Files read",
      d.reads.slice(-cap(input, 12)).map((p) => relative(p, root)),
    ),
  );
  const commands = new Map<string, number>();
  for (const o of d.outcomes) if (o.command) commands.set(o.command, (commands.get(o.command) ?? 0) + 1);
  out.push(
    ...list(
      "Commands run",
      [...commands]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([c]) => c),
    ),
  );
  const pasted = input.items.filter((i) => i.kind === "error" && i.detail === "pasted").slice(-2);
  for (const p of pasted) out.push(`The person pasted: ${clip(p.text, 200)}`);
  if (input.previous)
    out.push(
      ...distinct(input.previous.context, cap(input, 6)).map((l) =>
        clip(relativeIn(l, root), cap(input, 300)),
      ),
    );
  return out.length > 0 ? out.map((l) => `- ${l}`) : ["- Nothing beyond the files listed below."];
}

/** The history part's text (sections in pi's order), its lists shortened until it is within HISTORY_MAX_CHARS. */
export function historySections(input: SectionInput): string {
  let text = sectionsAt(input, 1);
  for (const scale of [0.85, 0.7, 0.5, 0.3, 0.15]) {
    if (text.length <= HISTORY_MAX_CHARS) break;
    text = sectionsAt(input, scale);
  }
  return text;
}

function sectionsAt(base: SectionInput, scale: number): string {
  const input = { ...base, scale };
  const d = input.digest;
  const root = projectRoot([...d.touched.map((t) => t.path), ...d.reads]);
  const out = ["## Goal", ...goalSection(input)];
  out.push("", "## Constraints & Preferences", ...bullets(constraintLines(input), "None stated."));
  out.push("", "## Progress", ...progressSection(input, root));
  out.push("", "## Key Decisions", ...bullets(decisionLines(input), "None recorded."));
  out.push("", "## Next Steps", ...nextSteps(input));
  out.push("", "## Critical Context", ...criticalSection(input, root));
  return out.join("\n");
}
