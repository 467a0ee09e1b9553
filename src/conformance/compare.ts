/** Compares one pi 1.6 reference with Cutpoint's view of the same file, row by row and field by field. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { getPath } from "../core/session/index.ts";
import {
  type CutpointSession,
  cutpointCompactionSystemMessage,
  cutpointLeaf,
  cutpointPlanner,
  cutpointPlannerAt,
  cutpointSessionInfo,
  cutpointViewAt,
  loadCutpointSession,
} from "./cutpoint-view.ts";
import {
  type LeafView,
  type MessageView,
  type PlanView,
  REPO_ROOT,
  type Reference,
  referenceLines,
} from "./reference-types.ts";

export interface Disagreement {
  field: string;
  pi: unknown;
  cutpoint: unknown;
}

/** One check: a rule at one place in one file; it agrees when every compared field is equal. */
export interface Row {
  file: string;
  /** Where: "file", "leaf on load (line 12)", "line 12". */
  at: string;
  /** Which rule the row checks: "session", "leaf", "context", "plan keep 2000". */
  rule: string;
  disagreements: Disagreement[];
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** "3-5,7,9-12" for a list of lines (null = an entry without a line). */
export function lineRanges(lines: readonly (number | null)[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const start = lines[i]!;
    let j = i;
    while (j + 1 < lines.length && start !== null && lines[j + 1] === (lines[j] as number) + 1) j++;
    parts.push(j > i ? `${start}-${lines[j]}` : String(start));
    i = j + 1;
  }
  return parts.join(",");
}

function messageKey(message: MessageView, withIds: boolean): string {
  return `${message.role}@${message.line}${withIds ? `#${message.entryId}` : ""}`;
}

/** Longest common subsequence of two key lists, as matched index pairs. */
function alignment(a: readonly string[], b: readonly string[]): [number, number][] {
  const n = a.length;
  const m = b.length;
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i]![j] =
        a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) pairs.push([i++, j++]);
    else if (table[i + 1]![j]! >= table[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

const listed = (items: string[]) =>
  items.length > 6 ? `${items.slice(0, 6).join(", ")}, … (${items.length})` : items.join(", ");

/**
 * The context messages compared as "role@line" (plus "#id" when ids are stable) and tokens: what
 * only one side has, and the messages both have whose token estimates differ.
 */
function messagesDiff(pi: MessageView[], cut: MessageView[], withIds: boolean): Disagreement | undefined {
  const a = pi.map((m) => messageKey(m, withIds));
  const b = cut.map((m) => messageKey(m, withIds));
  const pairs = alignment(a, b);
  const matchedA = new Set(pairs.map(([i]) => i));
  const matchedB = new Set(pairs.map(([, j]) => j));
  const onlyA = a.filter((_, i) => !matchedA.has(i));
  const onlyB = b.filter((_, j) => !matchedB.has(j));
  const tokensA: string[] = [];
  const tokensB: string[] = [];
  for (const [i, j] of pairs) {
    if (pi[i]!.tokens !== cut[j]!.tokens) {
      tokensA.push(`${a[i]}=${pi[i]!.tokens}`);
      tokensB.push(`${b[j]}=${cut[j]!.tokens}`);
    }
  }
  if (onlyA.length + onlyB.length + tokensA.length === 0) return undefined;
  const summary = (count: number, only: string[], tokens: string[]) =>
    [
      `${count} messages`,
      only.length ? `only here: ${listed(only)}` : "",
      tokens.length ? `tokens: ${listed(tokens)}` : "",
    ]
      .filter((part) => part !== "")
      .join("; ");
  return {
    field: "messages",
    pi: summary(a.length, onlyA, tokensA),
    cutpoint: summary(b.length, onlyB, tokensB),
  };
}

function compareFields(
  pi: Record<string, unknown>,
  cut: Record<string, unknown>,
  fields: readonly string[],
  out: Disagreement[],
): void {
  for (const field of fields) {
    if (!(field in pi)) continue;
    if (!same(pi[field], cut[field])) out.push({ field, pi: pi[field], cutpoint: cut[field] });
  }
}

const VIEW_FIELDS = [
  "leafType",
  "pathLength",
  "model",
  "thinkingLevel",
  "contextTokens",
  "usageIndex",
  "requestRoles",
  "system",
];
const PLAN_FIELDS = [
  "firstKeptLine",
  "firstKeptType",
  "isSplitTurn",
  "tokensBefore",
  "messagesToSummarize",
  "turnPrefixMessages",
  "previousSummary",
  "readFiles",
  "modifiedFiles",
  "summarizedRoles",
  "prefixRoles",
];

function planDisagreements(pi: PlanView, cut: PlanView | undefined, withIds: boolean): Disagreement[] {
  if (!cut) return [{ field: "plan", pi: "computed", cutpoint: "not computed" }];
  if (pi.compact !== cut.compact) {
    const summary = (p: PlanView) =>
      p.compact ? `compacts, first kept line ${p.firstKeptLine}` : "nothing to compact";
    return [{ field: "compact", pi: summary(pi), cutpoint: summary(cut) }];
  }
  if (!pi.compact) return [];
  const out: Disagreement[] = [];
  compareFields(
    pi as unknown as Record<string, unknown>,
    cut as unknown as Record<string, unknown>,
    withIds ? ["firstKeptEntryId", ...PLAN_FIELDS] : PLAN_FIELDS,
    out,
  );
  for (const field of ["summarizedLines", "prefixLines"] as const) {
    const a = pi[field];
    if (a === undefined) continue;
    const b = cut[field] ?? [];
    if (!same(a, b)) out.push({ field, pi: lineRanges(a), cutpoint: lineRanges(b) });
  }
  return out;
}

function viewRows(file: string, at: string, pi: LeafView, cut: LeafView, withIds: boolean): Row[] {
  const context: Disagreement[] = [];
  compareFields(
    pi as unknown as Record<string, unknown>,
    cut as unknown as Record<string, unknown>,
    VIEW_FIELDS,
    context,
  );
  if (pi.messages) {
    const diff = messagesDiff(pi.messages, cut.messages ?? [], withIds);
    if (diff) context.push(diff);
  }
  const rows: Row[] = [];
  if (pi.contextTokens !== undefined || pi.messages)
    rows.push({ file, at, rule: "context", disagreements: context });
  for (const plan of pi.plans) {
    const mine = cut.plans.find((p) => p.keep === plan.keep);
    rows.push({
      file,
      at,
      rule: `plan keep ${plan.keep}`,
      disagreements: planDisagreements(plan, mine, withIds),
    });
  }
  return rows;
}

/** The incremental planner's row at one view: context size and every plan, fields prefixed "keep K". */
function plannerRow(
  file: string,
  at: string,
  pi: LeafView,
  cut: Pick<LeafView, "contextTokens" | "plans">,
  withIds: boolean,
): Row {
  const out: Disagreement[] = [];
  if (pi.contextTokens !== undefined && pi.contextTokens !== cut.contextTokens) {
    out.push({ field: "contextTokens", pi: pi.contextTokens, cutpoint: cut.contextTokens });
  }
  for (const plan of pi.plans) {
    const mine = cut.plans.find((p) => p.keep === plan.keep);
    for (const d of planDisagreements(plan, mine, withIds))
      out.push({ ...d, field: `keep ${plan.keep} ${d.field}` });
  }
  return { file, at, rule: "planner", disagreements: out };
}

/** Every row of one reference, compared with Cutpoint's view of the same file. */
export function compareReference(file: string, reference: Reference): Row[] {
  const text = readFileSync(resolve(REPO_ROOT, reference.source), "utf8");
  const session: CutpointSession = loadCutpointSession(text);
  const withIds = reference.idsStable;
  const rows: Row[] = [];

  const info = cutpointSessionInfo(session);
  const sessionRow: Disagreement[] = [];
  if (reference.sessionName !== info.sessionName) {
    sessionRow.push({ field: "sessionName", pi: reference.sessionName, cutpoint: info.sessionName });
  }
  const labels = (list: Reference["labels"]) =>
    list.map((l) => `${l.targetLine}${withIds ? `#${l.targetId}` : ""}=${l.label}`);
  if (!same(labels(reference.labels), labels(info.labels))) {
    sessionRow.push({ field: "labels", pi: labels(reference.labels), cutpoint: labels(info.labels) });
  }
  rows.push({ file, at: "file", rule: "session", disagreements: sessionRow });

  const piLeaf = reference.leaf;
  const myLeaf = cutpointLeaf(session);
  const leafRow: Disagreement[] = [];
  compareFields(
    {
      leafLine: piLeaf.leafLine,
      nextParentLine: piLeaf.nextParentLine,
      compactionSystemMessage: piLeaf.compactionSystemMessage,
    },
    {
      leafLine: session.lineOf(myLeaf.leafId),
      nextParentLine: myLeaf.nextParentLine,
      compactionSystemMessage: myLeaf.compactionSystemMessage,
    },
    ["leafLine", "nextParentLine", "compactionSystemMessage"],
    leafRow,
  );
  if (withIds) {
    compareFields(
      piLeaf as unknown as Record<string, unknown>,
      myLeaf as unknown as Record<string, unknown>,
      ["leafId", "nextParentId"],
      leafRow,
    );
  }
  const leafAt = `leaf on load (line ${piLeaf.leafLine})`;
  rows.push({ file, at: leafAt, rule: "leaf", disagreements: leafRow });
  const keeps = piLeaf.plans.map((p) => p.keep);
  rows.push(
    ...viewRows(
      file,
      leafAt,
      piLeaf,
      cutpointViewAt(session, myLeaf.leafId, keeps, reference.reserveTokens),
      withIds,
    ),
  );

  const planner = cutpointPlanner();
  for (const piView of referenceLines(reference)) {
    const at = `line ${piView.leafLine}`;
    const entry = piView.leafLine === null ? undefined : session.entryAtLine(piView.leafLine);
    if (!entry) {
      rows.push({
        file,
        at,
        rule: "context",
        disagreements: [{ field: "leaf", pi: "an entry", cutpoint: "no entry on this line" }],
      });
      continue;
    }
    if (piView.compactionSystemMessage !== undefined) {
      const mine = cutpointCompactionSystemMessage(getPath(session.byId, entry.id));
      const appends: Disagreement[] = [];
      if (!same(piView.compactionSystemMessage, mine)) {
        appends.push({
          field: "compactionSystemMessage",
          pi: piView.compactionSystemMessage,
          cutpoint: mine,
        });
      }
      rows.push({ file, at, rule: "appends", disagreements: appends });
    }
    const lineKeeps = piView.plans.map((p) => p.keep);
    // The UI's incremental planner, fed the leaves in file order (it reuses the shared prefix).
    const incremental = cutpointPlannerAt(planner, session, entry.id, lineKeeps, reference.reserveTokens);
    rows.push(plannerRow(file, at, piView, incremental, withIds));
    rows.push(
      ...viewRows(
        file,
        at,
        piView,
        cutpointViewAt(session, entry.id, lineKeeps, reference.reserveTokens),
        withIds,
      ),
    );
  }
  return rows;
}

/** One disagreement as a line of text: file, place, rule, field, pi's value, Cutpoint's value. */
export function formatDisagreement(row: Row, d: Disagreement): string {
  const show = (value: unknown) => {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    return text.length > 220 ? `${text.slice(0, 220)}…` : text;
  };
  return `${row.file} ${row.at} [${row.rule}] ${d.field}: pi ${show(d.pi)} | cutpoint ${show(d.cutpoint)}`;
}
