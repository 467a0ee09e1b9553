// Checks the generator against the shared pi16 reference files (written earlier by pi 1.6 too): same numbers or the refresh fails.
import { readFileSync } from "node:fs";

const VIEW_FIELDS = [
  "leafId",
  "leafLine",
  "leafType",
  "pathLength",
  "model",
  "thinkingLevel",
  "contextTokens",
  "usageIndex",
  "llmRoles",
];
const PLAN_FIELDS = [
  "compact",
  "firstKeptEntryId",
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

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function fail(name, problems) {
  if (problems.length === 0) return;
  throw new Error(`generator self-check failed for ${name}:\n  ${problems.slice(0, 20).join("\n  ")}`);
}

/** The leaf view must match ../shared/fixtures/pi16/<name>.pi16-view.json on every field both have. */
export function checkAgainstSharedView(name, leaf, viewPath) {
  const shared = JSON.parse(readFileSync(viewPath, "utf8"));
  const problems = [];
  for (const field of VIEW_FIELDS) {
    if (field in shared && !same(shared[field], leaf[field])) {
      problems.push(
        `${field}: shared ${JSON.stringify(shared[field])}, generated ${JSON.stringify(leaf[field])}`,
      );
    }
  }
  const brief = (list) => list.map((m) => `${m.role}@${m.line}:${m.entryId}:${m.tokens}`);
  if (!same(brief(shared.messages), brief(leaf.messages))) problems.push("messages differ");
  for (const sharedPlan of shared.plans ?? []) {
    const plan = leaf.plans.find((p) => p.keep === sharedPlan.keep);
    for (const field of PLAN_FIELDS) {
      if (field in sharedPlan && !same(sharedPlan[field], plan?.[field])) {
        problems.push(
          `plan keep ${sharedPlan.keep} ${field}: shared ${JSON.stringify(sharedPlan[field])}, generated ${JSON.stringify(plan?.[field])}`,
        );
      }
    }
  }
  fail(name, problems);
  console.log(`self-check ${name}: leaf view matches ${viewPath.split("/").pop()}`);
}

/** Per-line brief rows must match the shared plans file (`line`, `keep`, plan fields, `contextTokens`). */
export function checkAgainstSharedPlans(name, rows, plansPath) {
  const byLine = new Map(rows.map((row) => [row.leafLine, row]));
  const problems = [];
  let count = 0;
  for (const text of readFileSync(plansPath, "utf8").split("\n")) {
    if (!text.trim()) continue;
    const shared = JSON.parse(text);
    count += 1;
    const row = byLine.get(shared.line);
    const plan = row?.plans.find((p) => p.keep === shared.keep);
    if (!row || !plan) {
      problems.push(`line ${shared.line} keep ${shared.keep}: not generated`);
      continue;
    }
    if (shared.contextTokens !== row.contextTokens) {
      problems.push(
        `line ${shared.line}: contextTokens shared ${shared.contextTokens}, generated ${row.contextTokens}`,
      );
    }
    for (const field of PLAN_FIELDS) {
      if (field in shared && !same(shared[field], plan[field])) {
        problems.push(
          `line ${shared.line} keep ${shared.keep} ${field}: shared ${JSON.stringify(shared[field])}, generated ${JSON.stringify(plan[field])}`,
        );
      }
    }
  }
  fail(name, problems);
  console.log(`self-check ${name}: ${count} rows match ${plansPath.split("/").pop()}`);
}
