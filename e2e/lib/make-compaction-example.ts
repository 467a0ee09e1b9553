/** Writes public/examples/compaction-example.jsonl: a ~120-entry pi 1.6 session past 20k tokens (run: npx tsx e2e/lib/make-compaction-example.ts). */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";

type Json = Record<string, unknown>;

const MODEL = { api: "openai-completions", provider: "openai", model: "gpt-5-mini" };
/** What the provider counts beyond the messages (system prompt and tools): reported usage adds it. */
const SYSTEM_TOKENS = 2400;
const START = Date.parse("2026-11-30T14:02:00.000Z");

let seq = 0;
let clock = START;
let parent: string | null = null;
let chars = 0;
let callSeq = 0;
const lines: string[] = [];

function nextId(): string {
  seq += 1;
  return (0xb0000000 + seq * 0x1f3).toString(16).slice(-8);
}

function push(entry: Json, seconds = 6): string {
  clock += seconds * 1000;
  const id = nextId();
  lines.push(JSON.stringify({ ...entry, id, parentId: parent, timestamp: new Date(clock).toISOString() }));
  parent = id;
  return id;
}

function message(message: Json, seconds?: number): string {
  for (const part of (message.content ?? []) as Json[]) {
    const text = part.text ?? part.thinking ?? JSON.stringify(part.arguments ?? "");
    chars += String(text).length;
  }
  return push(
    { type: "message", message: { ...message, timestamp: clock + (seconds ?? 6) * 1000 } },
    seconds,
  );
}

function usage(output: number): Json {
  const context = Math.round(chars / 4) + SYSTEM_TOKENS;
  const cacheRead = Math.round(context * 0.6);
  const input = context - cacheRead;
  return {
    input,
    output,
    cacheRead,
    cacheWrite: 0,
    totalTokens: input + output + cacheRead,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

function user(text: string): void {
  message({ role: "user", content: [{ type: "text", text }] }, 40);
}

function say(text: string, thinking?: string): void {
  const content: Json[] = [];
  if (thinking) content.push({ type: "thinking", thinking });
  content.push({ type: "text", text });
  message(
    { role: "assistant", content, ...MODEL, usage: usage(180 + text.length / 4), stopReason: "stop" },
    9,
  );
}

/** One tool call and its result. */
function tool(
  name: string,
  args: Json,
  result: string,
  opts: { text?: string; thinking?: string; error?: boolean } = {},
) {
  callSeq += 1;
  const id = `call_${String(callSeq).padStart(3, "0")}_${name}`;
  const content: Json[] = [];
  if (opts.thinking) content.push({ type: "thinking", thinking: opts.thinking });
  if (opts.text) content.push({ type: "text", text: opts.text });
  content.push({ type: "toolCall", id, name, arguments: args });
  message({ role: "assistant", content, ...MODEL, usage: usage(220), stopReason: "toolUse" }, 9);
  message(
    {
      role: "toolResult",
      toolCallId: id,
      toolName: name,
      content: [{ type: "text", text: result }],
      isError: opts.error ?? false,
    },
    2,
  );
}

// A deterministic pseudo-random stream for the data file.
let rnd = 7;
function rand(n: number): number {
  rnd = (rnd * 1103515245 + 12345) % 2147483648;
  return rnd % n;
}

const CATEGORIES = [
  "rent",
  "food",
  "transport",
  "books",
  "health",
  "utilities",
  "leisure",
  "gifts",
  "phone",
  "insurance",
];
const NOTES: Record<string, string[]> = {
  rent: ["flat, Lindenstrasse"],
  food: ["market", "supermarket", "bakery", "lunch with Ana", "canteen", "pizza"],
  transport: ["monthly pass", "taxi to the station", "train to Basel", "bike repair"],
  books: ["second-hand shop", "technical book", "comic"],
  health: ["pharmacy", "dentist", "physio"],
  utilities: ["electricity", "water", "internet"],
  leisure: ["cinema", "concert", "climbing gym", "museum"],
  gifts: ["birthday present", "flowers"],
  phone: ["mobile plan"],
  insurance: ["household insurance", "liability insurance"],
};

function csv(rows: number, year: number): string {
  const out = ["date,category,amount,note"];
  for (let i = 0; i < rows; i++) {
    const month = 7 + Math.floor((i * 5) / rows);
    const day = i % Math.floor(rows / 5) === 0 ? 1 : 2 + rand(27);
    const category = day === 1 ? "rent" : CATEGORIES[1 + rand(CATEGORIES.length - 1)]!;
    const notes = NOTES[category]!;
    const amount = category === "rent" ? "800.00" : `${rand(90)}.${String(rand(100)).padStart(2, "0")}`;
    out.push(
      `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")},${category},${amount},${notes[rand(notes.length)]}`,
    );
  }
  return out.join("\n");
}

const PARSE_TS = `import { readFileSync } from "node:fs";

export interface Expense {
  date: string;
  category: string;
  cents: number;
  note: string;
}

export class CsvError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(\`line \${line}: \${message}\`);
  }
}

/** "12.3" -> 1230, "-0.05" -> -5; throws on anything else. No floating point involved. */
export function toCents(text: string): number {
  const m = /^(-)?(\\d+)(?:\\.(\\d{1,2}))?$/.exec(text.trim());
  if (!m) throw new Error(\`not an amount: \${JSON.stringify(text)}\`);
  const cents = Number(m[2]) * 100 + Number((m[3] ?? "").padEnd(2, "0"));
  return m[1] ? -cents : cents;
}

/** Parses the expenses CSV (header: date,category,amount[,note]). Blank lines are skipped. */
export function parseCsv(text: string): Expense[] {
  const lines = text.split(/\\r?\\n/);
  const header = lines[0]?.split(",").map((h) => h.trim());
  if (!header || header[0] !== "date" || header[1] !== "category" || header[2] !== "amount") {
    throw new CsvError(1, "expected the header date,category,amount");
  }
  const out: Expense[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const [date, category, amount, ...rest] = line.split(",");
    if (!date || !category || amount === undefined) throw new CsvError(i + 1, "expected 3 or 4 fields");
    if (!/^\\d{4}-\\d{2}-\\d{2}$/.test(date)) throw new CsvError(i + 1, \`not a date: \${date}\`);
    try {
      out.push({ date, category: category.trim(), cents: toCents(amount), note: rest.join(",").trim() });
    } catch (e) {
      throw new CsvError(i + 1, (e as Error).message);
    }
  }
  return out;
}

export function readExpenses(path: string): Expense[] {
  return parseCsv(readFileSync(path, "utf8"));
}
`;

const TOTALS_TS = `import type { Expense } from "./parse.js";

/** Totals per category in first-seen order (the text output keeps that order). */
export function totalsByCategory(expenses: readonly Expense[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const e of expenses) totals.set(e.category, (totals.get(e.category) ?? 0) + e.cents);
  return totals;
}

/** The totals as JSON, sorted by category; amounts in euros as numbers. */
export function totalsToJson(totals: Map<string, number>): string {
  const sorted = [...totals.entries()].sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify(Object.fromEntries(sorted.map(([k, cents]) => [k, cents / 100])), null, 2);
}

export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return \`\${sign}\${Math.floor(abs / 100)}.\${String(abs % 100).padStart(2, "0")}\`;
}

export function totalsToText(totals: Map<string, number>): string {
  const width = Math.max(...[...totals.keys()].map((k) => k.length), 5);
  const rows = [...totals.entries()].map(([k, cents]) => \`\${k.padEnd(width)}  \${formatCents(cents).padStart(10)}\`);
  const sum = [...totals.values()].reduce((a, b) => a + b, 0);
  return [...rows, "-".repeat(width + 12), \`\${"total".padEnd(width)}  \${formatCents(sum).padStart(10)}\`].join("\\n");
}
`;

const CLI_TS = `import { readExpenses } from "./parse.js";
import { totalsByCategory, totalsToJson, totalsToText } from "./totals.js";

const USAGE = "usage: tally [--json] <expenses.csv>";

function fail(message: string): never {
  console.error(message);
  console.error(USAGE);
  process.exit(2);
}

export function main(argv: string[]): void {
  if (argv.includes("--help")) {
    console.log(USAGE);
    return;
  }
  let json = false;
  const files: string[] = [];
  for (const arg of argv) {
    if (arg === "--json") json = true;
    else if (arg.startsWith("--")) fail(\`unknown option: \${arg}\`);
    else files.push(arg);
  }
  if (files.length !== 1) fail("expected one CSV file");
  const totals = totalsByCategory(readExpenses(files[0]!));
  console.log(json ? totalsToJson(totals) : totalsToText(totals));
}

main(process.argv.slice(2));
`;

const BUDGETS_JSON = `{
  "currency": "EUR",
  "monthly": {
    "rent": 800,
    "food": 420,
    "transport": 90,
    "books": 40,
    "health": 60,
    "utilities": 130,
    "leisure": 120,
    "gifts": 50,
    "phone": 25,
    "insurance": 45
  },
  "warnAt": 0.9
}`;

function vitestRun(
  files: [string, string[]][],
  failing?: { file: string; test: string; detail: string },
): string {
  const out = [" RUN  v4.1.12 /workspace/tally", ""];
  let passed = 0;
  for (const [file, tests] of files) {
    const bad = failing?.file === file;
    out.push(
      ` ${bad ? "❯" : "✓"} ${file} (${tests.length} tests${bad ? " | 1 failed" : ""}) ${3 + rand(40)}ms`,
    );
    for (const t of tests) {
      const isBad = bad && t === failing?.test;
      out.push(`   ${isBad ? "×" : "✓"} ${t} ${1 + rand(9)}ms`);
      if (!isBad) passed += 1;
    }
  }
  if (failing) {
    out.push(
      "",
      "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯",
      "",
      ` FAIL  ${failing.file} > ${failing.test}`,
      failing.detail,
      "",
    );
  }
  const total = files.reduce((n, [, t]) => n + t.length, 0);
  out.push(
    "",
    ` Test Files  ${failing ? `1 failed | ${files.length - 1} passed` : `${files.length} passed`} (${files.length})`,
    `      Tests  ${failing ? `1 failed | ${passed} passed` : `${passed} passed`} (${total})`,
    `   Start at  14:${String(10 + rand(40)).padStart(2, "0")}:0${rand(9)}`,
    `   Duration  ${1 + rand(3)}.${rand(9)}${rand(9)}s (transform 61ms, setup 0ms, collect 212ms, tests 2.41s)`,
  );
  return out.join("\n");
}

const PARSE_TESTS = [
  "parses a simple file",
  "skips blank lines",
  "keeps commas in notes",
  "rejects a missing header",
  "rejects a bad date with its line number",
  "toCents: 12.3 -> 1230",
  "toCents: -0.05 -> -5",
  "toCents: 0.10 + 0.20 is exactly 30 cents",
  "toCents: rejects 1.234",
];
const TOTALS_TESTS = [
  "sums per category in first-seen order",
  "JSON is sorted by category",
  "text output has a total line",
  "formats negative amounts",
];
const CLI_TESTS = [
  "prints text totals",
  "prints sorted totals as JSON with --json",
  "--help prints usage to stdout",
];
const REPORT_TESTS = [
  "groups expenses by month",
  "compares each category with its budget",
  "flags categories at 90 % of the budget",
  "flags categories over the budget",
  "lists categories without a budget",
  "renders a markdown table",
];

function run(): string {
  seq = 0;
  clock = START;
  parent = null;
  chars = 0;
  callSeq = 0;
  rnd = 7;
  lines.length = 0;
  const header = {
    type: "session",
    version: 3,
    id: "8d41c2b7-5e3a-4f09-9c6d-2a7b1e0f4c58",
    timestamp: new Date(START).toISOString(),
    cwd: "/workspace/tally",
  };
  lines.push(JSON.stringify(header));
  push({ type: "model_change", provider: "openai", modelId: "gpt-5-mini" }, 2);
  push({ type: "thinking_level_change", thinkingLevel: "low" }, 2);
  const data = csv(2400, 2026);

  user(
    "tally now parses amounts exactly. Next: a monthly report. Given `data/expenses-2026.csv` and `budgets.json`, `tally report` should print, per month, each category's total next to its budget, and flag the ones at 90 % or over. Read the code first; tests with `npm test`.",
  );
  tool(
    "bash",
    { command: "ls -R src test data && cat package.json" },
    `src:\ncli.ts\nparse.ts\ntotals.ts\n\ntest:\ncli.test.ts\nfixtures\nparse.test.ts\ntotals.test.ts\n\ntest/fixtures:\nmixed.csv\nsimple.csv\n\ndata:\nexpenses-2026.csv\n\n{\n  "name": "tally",\n  "type": "module",\n  "bin": { "tally": "dist/cli.js" },\n  "scripts": { "build": "tsc -p .", "test": "vitest run" },\n  "devDependencies": { "typescript": "5.9.3", "vitest": "4.1.12" }\n}`,
    { text: "Let me look at the project first." },
  );
  tool("read", { path: "src/cli.ts" }, CLI_TS);
  tool("read", { path: "src/parse.ts" }, PARSE_TS);
  tool("read", { path: "src/totals.ts" }, TOTALS_TS);
  tool("bash", { command: "cat data/expenses-2026.csv" }, data, {
    thinking: "Need to see the real data: months covered, categories, notes with commas?",
  });
  tool("bash", { command: "cat budgets.json" }, "cat: budgets.json: No such file or directory", {
    error: true,
  });
  say(
    "There is no `budgets.json` yet. The data covers July to November 2026 with 10 categories. Shall I create `budgets.json` with monthly amounts per category (and a `warnAt` ratio, 0.9 by default)?",
  );
  user(
    "Yes, create it. Rent 800, food 420, transport 90, books 40, health 60, utilities 130, leisure 120, gifts 50, phone 25, insurance 45.",
  );
  tool("write", { path: "budgets.json", content: BUDGETS_JSON }, "Wrote 292 bytes to budgets.json.");
  tool(
    "read",
    { path: "test/parse.test.ts" },
    PARSE_TESTS.map((t) => `  it(${JSON.stringify(t)}, () => {\n    // …\n  });`).join("\n\n"),
  );
  tool(
    "bash",
    { command: "npm test 2>&1" },
    vitestRun([
      ["test/parse.test.ts", PARSE_TESTS],
      ["test/totals.test.ts", TOTALS_TESTS],
      ["test/cli.test.ts", CLI_TESTS],
    ]),
  );

  const REPORT_TS = `import type { Expense } from "./parse.js";
import { formatCents } from "./totals.js";

export interface Budgets {
  currency: string;
  /** Euros per month, by category. */
  monthly: Record<string, number>;
  /** Ratio of the budget from which a category is flagged (0.9 = 90 %). */
  warnAt: number;
}

export interface ReportRow {
  category: string;
  cents: number;
  budgetCents: number | undefined;
  status: "ok" | "near" | "over" | "no budget";
}

export type Report = Map<string, ReportRow[]>;

/** "2026-07-14" -> "2026-07". */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

export function buildReport(expenses: readonly Expense[], budgets: Budgets): Report {
  const byMonth = new Map<string, Map<string, number>>();
  for (const e of expenses) {
    const month = monthOf(e.date);
    const totals = byMonth.get(month) ?? new Map<string, number>();
    totals.set(e.category, (totals.get(e.category) ?? 0) + e.cents);
    byMonth.set(month, totals);
  }
  const report: Report = new Map();
  for (const month of [...byMonth.keys()].sort()) {
    const rows: ReportRow[] = [];
    for (const [category, cents] of byMonth.get(month)!) {
      const budget = budgets.monthly[category];
      const budgetCents = budget === undefined ? undefined : Math.round(budget * 100);
      rows.push({ category, cents, budgetCents, status: statusOf(cents, budgetCents, budgets.warnAt) });
    }
    rows.sort((a, b) => a.category.localeCompare(b.category));
    report.set(month, rows);
  }
  return report;
}

function statusOf(cents: number, budgetCents: number | undefined, warnAt: number): ReportRow["status"] {
  if (budgetCents === undefined) return "no budget";
  if (cents > budgetCents) return "over";
  if (cents >= budgetCents * warnAt) return "near";
  return "ok";
}

const MARK: Record<ReportRow["status"], string> = { ok: "", near: "⚠ near", over: "✖ over", "no budget": "?" };

export function reportToMarkdown(report: Report): string {
  const out: string[] = [];
  for (const [month, rows] of report) {
    out.push(\`## \${month}\`, "", "| category | spent | budget | |", "|---|---:|---:|---|");
    for (const r of rows) {
      const budget = r.budgetCents === undefined ? "—" : formatCents(r.budgetCents);
      out.push(\`| \${r.category} | \${formatCents(r.cents)} | \${budget} | \${MARK[r.status]} |\`);
    }
    out.push("");
  }
  return out.join("\\n");
}
`;
  tool("write", { path: "src/report.ts", content: REPORT_TS }, "Wrote 2291 bytes to src/report.ts.", {
    text: "Writing the report module: group by month, compare with the budget, render markdown.",
    thinking: "Keep cents everywhere; budgets are euros in JSON, convert once with Math.round(x*100).",
  });
  tool(
    "write",
    {
      path: "test/report.test.ts",
      content: `import { describe, expect, it } from "vitest";\nimport { parseCsv } from "../src/parse.js";\nimport { buildReport, reportToMarkdown } from "../src/report.js";\n\nconst budgets = { currency: "EUR", monthly: { food: 100, rent: 800 }, warnAt: 0.9 };\nconst csv = \`date,category,amount,note\n2026-07-01,rent,800.00,flat\n2026-07-03,food,45.10,market\n2026-07-19,food,46.00,market\n2026-08-02,food,120.00,party\n2026-08-09,books,12.00,comic\n\`;\n\ndescribe("report", () => {\n${REPORT_TESTS.map((t) => `  it(${JSON.stringify(t)}, () => {\n    const report = buildReport(parseCsv(csv), budgets);\n    expect(report.size).toBe(2);\n  });`).join("\n\n")}\n\n  it("renders a markdown table", () => {\n    expect(reportToMarkdown(buildReport(parseCsv(csv), budgets))).toContain("| food | 91.10 | 100.00 | ⚠ near |");\n  });\n});\n`,
    },
    "Wrote 1675 bytes to test/report.test.ts.",
  );
  tool(
    "bash",
    { command: "npm test 2>&1" },
    vitestRun(
      [
        ["test/parse.test.ts", PARSE_TESTS],
        ["test/totals.test.ts", TOTALS_TESTS],
        ["test/cli.test.ts", CLI_TESTS],
        ["test/report.test.ts", REPORT_TESTS],
      ],
      {
        file: "test/report.test.ts",
        test: "renders a markdown table",
        detail: `AssertionError: expected '## 2026-07\\n\\n| category | spent | b…' to contain '| food | 91.10 | 100.00 | ⚠ near |'\n\n- Expected\n+ Received\n\n- | food | 91.10 | 100.00 | ⚠ near |\n+ | food | 91.10 | 100.00 | ⚠ near  |\n\n ❯ test/report.test.ts:41:60\n     39|   it("renders a markdown table", () => {\n     40|     expect(reportToMarkdown(buildReport(parseCsv(csv), budgets)))\n     41|       .toContain("| food | 91.10 | 100.00 | ⚠ near |");\n       |                                                            ^`,
      },
    ),
  );
  tool("read", { path: "src/report.ts" }, REPORT_TS, {
    thinking: "Spacing in the mark column? Re-read the render.",
  });
  tool(
    "edit",
    { path: "src/report.ts", oldText: '"⚠ near"', newText: '"⚠ near"' },
    "Error: oldText and newText are identical.",
    { error: true },
  );
  tool(
    "bash",
    {
      command:
        "node -e \"console.log(JSON.stringify('⚠ near'))\" && grep -n 'near' src/report.ts | cat -A | head",
    },
    `"⚠ near"\n58:const MARK: Record<ReportRow["status"], string> = { ok: "", near: "M-bM-^ZM-  near", over: "M-bM-^\\M-^V over", "no budget": "?" };$`,
    {
      thinking: "cat -A shows a no-break space after the sign in the source.",
    },
  );
  tool(
    "edit",
    { path: "src/report.ts", oldText: 'near: "⚠\u00a0near"', newText: 'near: "⚠ near"' },
    "Successfully replaced text in src/report.ts.",
    {
      text: "The source had a no-break space after ⚠; replacing it with a plain space.",
    },
  );
  tool(
    "bash",
    { command: "npm test 2>&1" },
    vitestRun([
      ["test/parse.test.ts", PARSE_TESTS],
      ["test/totals.test.ts", TOTALS_TESTS],
      ["test/cli.test.ts", CLI_TESTS],
      ["test/report.test.ts", REPORT_TESTS],
    ]),
  );
  push({ type: "label", targetId: parent, label: "report module green" }, 3);

  user(
    "Good. Now wire it into the CLI as `tally report [--budgets budgets.json] <expenses.csv>`, and print the markdown.",
  );
  tool("read", { path: "src/cli.ts" }, CLI_TS);
  const CLI2 = CLI_TS.replace(
    "  let json = false;",
    `  if (argv[0] === "report") return report(argv.slice(1));\n  let json = false;`,
  ).replace(
    "main(process.argv.slice(2));",
    `function report(argv: string[]): void {\n  let budgetsPath = "budgets.json";\n  const files: string[] = [];\n  for (let i = 0; i < argv.length; i++) {\n    if (argv[i] === "--budgets") budgetsPath = argv[++i] ?? fail("--budgets needs a file");\n    else if (argv[i]!.startsWith("--")) fail(\`unknown option: \${argv[i]}\`);\n    else files.push(argv[i]!);\n  }\n  if (files.length !== 1) fail("expected one CSV file");\n  const budgets = JSON.parse(readFileSync(budgetsPath, "utf8")) as Budgets;\n  console.log(reportToMarkdown(buildReport(readExpenses(files[0]!), budgets)));\n}\n\nmain(process.argv.slice(2));`,
  );
  tool("write", { path: "src/cli.ts", content: CLI2 }, "Wrote 1544 bytes to src/cli.ts.", {
    text: "Adding the `report` subcommand.",
  });
  tool(
    "bash",
    { command: "npx tsc -p . --noEmit" },
    "src/cli.ts(27,43): error TS2304: Cannot find name 'readFileSync'.\nsrc/cli.ts(27,79): error TS2304: Cannot find name 'Budgets'.\nsrc/cli.ts(28,15): error TS2304: Cannot find name 'reportToMarkdown'.\nsrc/cli.ts(28,32): error TS2304: Cannot find name 'buildReport'.",
    { error: true },
  );
  tool(
    "edit",
    {
      path: "src/cli.ts",
      oldText: 'import { readExpenses } from "./parse.js";',
      newText:
        'import { readFileSync } from "node:fs";\nimport { readExpenses } from "./parse.js";\nimport { type Budgets, buildReport, reportToMarkdown } from "./report.js";',
    },
    "Successfully replaced text in src/cli.ts.",
  );
  tool(
    "bash",
    { command: "npx tsc -p . --noEmit && npx tsx src/cli.ts report data/expenses-2026.csv" },
    reportOutput(data),
  );
  tool(
    "bash",
    { command: "grep -n ',food,' data/expenses-2026.csv" },
    data
      .split("\n")
      .map((l, i) => [l, i + 1] as const)
      .filter(([l]) => l.includes(",food,"))
      .map(([l, n]) => `${n}:${l}`)
      .join("\n"),
    {
      thinking: "Food is over every month? Check the rows by hand before saying so.",
      text: "Food looks high; checking its rows.",
    },
  );
  say(
    "`tally report data/expenses-2026.csv` prints one table per month (July to November). Over budget this year: food in three months, leisure twice; transport was near its budget in September. Categories without a budget would show `?`.",
  );

  user(
    "The `?` case is not tested, and `--budgets` with a missing file crashes with a stack trace. Fix both, please.",
  );
  tool(
    "bash",
    { command: 'npx tsx src/cli.ts report --budgets nope.json data/expenses-2026.csv; echo "exit $?"' },
    `node:fs:573\n  return binding.open(\n                 ^\n\nError: ENOENT: no such file or directory, open 'nope.json'\n    at Object.openSync (node:fs:573:18)\n    at readFileSync (node:fs:452:35)\n    at report (/workspace/tally/src/cli.ts:27:43)\n    at main (/workspace/tally/src/cli.ts:14:35)\n    at <anonymous> (/workspace/tally/src/cli.ts:31:1)\n    at ModuleJob.run (node:internal/modules/esm/module_job:271:25)\n    at async onImport.tracePromise.__proto__ (node:internal/modules/esm/loader:547:26)\n    at async asyncRunEntryPointWithESMLoader (node:internal/modules/run_main:116:5) {\n  errno: -2,\n  code: 'ENOENT',\n  syscall: 'open',\n  path: 'nope.json'\n}\n\nNode.js v22.11.0\nexit 1`,
  );
  tool(
    "edit",
    {
      path: "src/cli.ts",
      oldText: '  const budgets = JSON.parse(readFileSync(budgetsPath, "utf8")) as Budgets;',
      newText:
        // biome-ignore lint/suspicious/noTemplateCurlyInString: code the agent of the example wrote, kept as text
        '  let budgets: Budgets;\n  try {\n    budgets = JSON.parse(readFileSync(budgetsPath, "utf8")) as Budgets;\n  } catch (e) {\n    fail(`cannot read budgets from ${budgetsPath}: ${(e as Error).message}`);\n  }',
    },
    "Successfully replaced text in src/cli.ts.",
  );
  tool(
    "bash",
    { command: 'npx tsx src/cli.ts report --budgets nope.json data/expenses-2026.csv; echo "exit $?"' },
    "cannot read budgets from nope.json: ENOENT: no such file or directory, open 'nope.json'\nusage: tally [--json] <expenses.csv>\nexit 2",
  );
  tool(
    "edit",
    {
      path: "src/cli.ts",
      oldText: 'const USAGE = "usage: tally [--json] <expenses.csv>";',
      newText:
        'const USAGE = "usage: tally [--json] <expenses.csv>\\n       tally report [--budgets <budgets.json>] <expenses.csv>";',
    },
    "Successfully replaced text in src/cli.ts.",
    { text: "The usage line should mention `report` too." },
  );
  tool(
    "edit",
    {
      path: "test/report.test.ts",
      oldText: '  it("renders a markdown table", () => {',
      newText:
        '  it("marks a category without a budget with ?", () => {\n    const rows = buildReport(parseCsv(csv), budgets).get("2026-08")!;\n    expect(rows.find((r) => r.category === "books")).toMatchObject({ status: "no budget" });\n    expect(reportToMarkdown(buildReport(parseCsv(csv), budgets))).toContain("| books | 12.00 | — | ? |");\n  });\n\n  it("renders a markdown table", () => {',
    },
    "Successfully replaced text in test/report.test.ts.",
  );
  tool(
    "edit",
    {
      path: "test/cli.test.ts",
      oldText: "});\n",
      newText:
        '  it("report: a missing budgets file is an error, not a crash", () => {\n    const r = spawnSync("npx", ["tsx", "src/cli.ts", "report", "--budgets", "nope.json", "test/fixtures/simple.csv"], { encoding: "utf8" });\n    expect(r.status).toBe(2);\n    expect(r.stderr).toContain("cannot read budgets from nope.json");\n  });\n});\n',
    },
    "Successfully replaced text in test/cli.test.ts.",
  );
  tool(
    "bash",
    { command: "npm test 2>&1" },
    vitestRun([
      ["test/parse.test.ts", PARSE_TESTS],
      ["test/totals.test.ts", TOTALS_TESTS],
      ["test/cli.test.ts", [...CLI_TESTS, "report: a missing budgets file is an error, not a crash"]],
      ["test/report.test.ts", [...REPORT_TESTS, "marks a category without a budget with ?"]],
    ]),
  );
  say(
    "Both fixed: a missing or invalid budgets file prints `cannot read budgets from …` and the usage, exit code 2; the `?` case has a test. 23 tests pass.",
  );

  user("Can the report also show the year-to-date total per category, under the months? Same table style.");
  tool("read", { path: "src/report.ts" }, REPORT_TS);
  tool(
    "edit",
    {
      path: "src/report.ts",
      oldText: "export function reportToMarkdown(report: Report): string {\n  const out: string[] = [];",
      newText:
        "/** Totals per category over every month of the report, sorted by category. */\nexport function yearToDate(report: Report): [string, number][] {\n  const totals = new Map<string, number>();\n  for (const rows of report.values()) for (const r of rows) totals.set(r.category, (totals.get(r.category) ?? 0) + r.cents);\n  return [...totals.entries()].sort(([a], [b]) => a.localeCompare(b));\n}\n\nexport function reportToMarkdown(report: Report): string {\n  const out: string[] = [];",
    },
    "Successfully replaced text in src/report.ts.",
  );
  tool(
    "edit",
    {
      path: "src/report.ts",
      oldText: '    out.push("");\n  }\n  return out.join("\\n");',
      newText:
        // biome-ignore lint/suspicious/noTemplateCurlyInString: code the agent of the example wrote, kept as text
        '    out.push("");\n  }\n  out.push("## Year to date", "", "| category | spent |", "|---|---:|");\n  for (const [category, cents] of yearToDate(report)) out.push(`| ${category} | ${formatCents(cents)} |`);\n  return out.join("\\n");',
    },
    "Successfully replaced text in src/report.ts.",
  );
  tool(
    "bash",
    { command: "npx tsx src/cli.ts report data/expenses-2026.csv | tail -16" },
    `## Year to date\n\n| category | spent |\n|---|---:|\n${CATEGORIES.slice()
      .sort()
      .map(
        (c, i) =>
          `| ${c} | ${c === "rent" ? "4000.00" : `${300 + i * 137 + rand(90)}.${String(rand(100)).padStart(2, "0")}`} |`,
      )
      .join("\n")}`,
  );
  tool(
    "bash",
    { command: "npm test 2>&1 | tail -5" },
    " Test Files  4 passed (4)\n      Tests  23 passed (23)\n   Start at  14:52:11\n   Duration  2.71s (transform 66ms, setup 0ms, collect 230ms, tests 2.45s)",
  );
  say(
    "Added a **Year to date** table after the months (sorted by category, same style). Tests still pass; I did not add a test for it yet.",
  );

  user(
    "How does this year compare with last year? The 2025 export is `data/expenses-2025.csv` (same format).",
  );
  const older = csv(1300, 2025);
  tool(
    "bash",
    { command: "wc -l data/expenses-2025.csv && cat data/expenses-2025.csv" },
    `${older.split("\n").length} data/expenses-2025.csv\n${older}`,
    {
      thinking: "Same columns? Check the header and a few rows before running the report on it.",
    },
  );
  tool(
    "bash",
    { command: "npx tsx src/cli.ts report data/expenses-2025.csv | tail -16" },
    reportOutput(older, "2025").split("\n").slice(-16).join("\n"),
  );
  say(
    "Compared with July–November 2025 the totals are close: food is the category that is over budget in both years, and leisure went up this year. 2025 has no rows in categories other than these ten, so no `?` rows. A side-by-side mode (`--compare`) would need a second CSV argument; say if you want it.",
  );

  user("Not now. Add the year-to-date test, and a short section in the README on `tally report`.");
  tool(
    "edit",
    {
      path: "test/report.test.ts",
      oldText: '  it("renders a markdown table", () => {',
      newText:
        '  it("adds up the year to date per category", () => {\n    expect(yearToDate(buildReport(parseCsv(csv), budgets))).toEqual([\n      ["books", 1200],\n      ["food", 21110],\n      ["rent", 80000],\n    ]);\n  });\n\n  it("renders a markdown table", () => {',
    },
    "Successfully replaced text in test/report.test.ts.",
  );
  tool(
    "bash",
    { command: "npm test 2>&1 | tail -12" },
    ` ❯ test/report.test.ts (8 tests | 1 failed) 14ms\n   × adds up the year to date per category 4ms\n\n⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n FAIL  test/report.test.ts > report > adds up the year to date per category\nReferenceError: yearToDate is not defined\n ❯ test/report.test.ts:52:5\n\n Test Files  1 failed | 3 passed (4)\n      Tests  1 failed | 23 passed (24)`,
    { error: false },
  );
  tool(
    "edit",
    {
      path: "test/report.test.ts",
      oldText: 'import { buildReport, reportToMarkdown } from "../src/report.js";',
      newText: 'import { buildReport, reportToMarkdown, yearToDate } from "../src/report.js";',
    },
    "Successfully replaced text in test/report.test.ts.",
  );
  tool(
    "bash",
    { command: "npm test 2>&1 | tail -4" },
    " Test Files  4 passed (4)\n      Tests  24 passed (24)\n   Start at  14:55:40\n   Duration  2.66s (transform 64ms, setup 0ms, collect 226ms, tests 2.41s)",
  );
  tool(
    "read",
    { path: "README.md" },
    "# tally\n\nTotals per category from a CSV of expenses.\n\n```\ntally [--json] <expenses.csv>\n```\n\nThe CSV has the header `date,category,amount` (an optional fourth column `note`). Amounts are exact to the cent.\n\n`--json` prints the totals as JSON, sorted by category, amounts in euros.\n",
  );
  tool(
    "edit",
    {
      path: "README.md",
      oldText: "`--json` prints the totals as JSON, sorted by category, amounts in euros.\n",
      newText:
        "`--json` prints the totals as JSON, sorted by category, amounts in euros.\n\n## Monthly report\n\n```\ntally report [--budgets budgets.json] <expenses.csv>\n```\n\nPrints, per month, each category's total next to its monthly budget (`budgets.json`: `monthly` amounts in euros, `warnAt` the ratio from which a category is flagged, 0.9 by default): `⚠ near` from that ratio, `✖ over` past the budget, `?` without a budget. A year-to-date table follows.\n",
    },
    "Successfully replaced text in README.md.",
  );
  say(
    "Test added (24 pass) and the README has a *Monthly report* section describing `budgets.json` and the flags.",
  );
  push({ type: "label", targetId: parent, label: "report + README" }, 3);

  user(
    "Last thing for today: the report should read `warnAt` as optional (default 0.9) and reject a negative budget with a clear error.",
  );
  tool("read", { path: "src/report.ts" }, REPORT_TS);
  tool(
    "edit",
    {
      path: "src/report.ts",
      oldText:
        "  /** Ratio of the budget from which a category is flagged (0.9 = 90 %). */\n  warnAt: number;",
      newText:
        "  /** Ratio of the budget from which a category is flagged (0.9 = 90 %, the default). */\n  warnAt?: number;",
    },
    "Successfully replaced text in src/report.ts.",
  );
  tool(
    "edit",
    {
      path: "src/report.ts",
      oldText: "export function buildReport(expenses: readonly Expense[], budgets: Budgets): Report {",
      newText:
        // biome-ignore lint/suspicious/noTemplateCurlyInString: code the agent of the example wrote, kept as text
        "export function checkBudgets(budgets: Budgets): void {\n  for (const [category, amount] of Object.entries(budgets.monthly)) {\n    if (!(amount >= 0)) throw new Error(`budget for ${category} must be a number ≥ 0, got ${JSON.stringify(amount)}`);\n  }\n}\n\nexport function buildReport(expenses: readonly Expense[], budgets: Budgets): Report {\n  checkBudgets(budgets);\n  const warnAt = budgets.warnAt ?? 0.9;",
    },
    "Successfully replaced text in src/report.ts.",
  );
  tool(
    "bash",
    { command: "npx tsc -p . --noEmit" },
    "src/report.ts(47,73): error TS2345: Argument of type 'number | undefined' is not assignable to parameter of type 'number'.",
    { error: true },
  );
  tool(
    "edit",
    {
      path: "src/report.ts",
      oldText: "statusOf(cents, budgetCents, budgets.warnAt)",
      newText: "statusOf(cents, budgetCents, warnAt)",
    },
    "Successfully replaced text in src/report.ts.",
  );
  tool(
    "bash",
    { command: "npx tsc -p . --noEmit && npm test 2>&1 | tail -4" },
    " Test Files  4 passed (4)\n      Tests  24 passed (24)\n   Start at  15:01:02\n   Duration  2.70s (transform 63ms, setup 0ms, collect 221ms, tests 2.44s)",
  );
  tool(
    "edit",
    {
      path: "test/report.test.ts",
      oldText: '  it("renders a markdown table", () => {',
      newText:
        '  it("rejects a negative budget", () => {\n    expect(() => buildReport([], { currency: "EUR", monthly: { food: -1 } })).toThrow("budget for food must be a number ≥ 0, got -1");\n  });\n\n  it("defaults warnAt to 0.9", () => {\n    const rows = buildReport(parseCsv(csv), { currency: "EUR", monthly: { food: 100 } }).get("2026-07")!;\n    expect(rows.find((r) => r.category === "food")?.status).toBe("near");\n  });\n\n  it("renders a markdown table", () => {',
    },
    "Successfully replaced text in test/report.test.ts.",
  );
  tool(
    "bash",
    { command: "npm test 2>&1 | tail -4" },
    " Test Files  4 passed (4)\n      Tests  26 passed (26)\n   Start at  15:02:37\n   Duration  2.74s (transform 65ms, setup 0ms, collect 229ms, tests 2.47s)",
  );
  say(
    "`warnAt` is optional now (0.9 when absent), and a negative or non-numeric budget stops the report with `budget for <category> must be a number ≥ 0, got …`. Two tests cover them; 26 pass.\n\nOpen points for next time: the report reads every month in the file (no `--from/--to` yet), and `budgets.json` has no per-month overrides.",
  );
  push({ type: "session_info", name: "tally: monthly report with budgets" }, 5);
  return `${lines.join("\n")}\n`;
}

function reportOutput(data: string, year = "2026"): string {
  const months = ["07", "08", "09", "10", "11"];
  const totals = new Map<string, Map<string, number>>();
  for (const line of data.split("\n").slice(1)) {
    const [date, category, amount] = line.split(",");
    const m = date!.slice(5, 7);
    const t = totals.get(m) ?? new Map<string, number>();
    const [euros, cents] = amount!.split(".");
    t.set(category!, (t.get(category!) ?? 0) + Number(euros) * 100 + Number(cents));
    totals.set(m, t);
  }
  const budgets = JSON.parse(BUDGETS_JSON).monthly as Record<string, number>;
  const out: string[] = [];
  for (const m of months) {
    out.push(`## ${year}-${m}`, "", "| category | spent | budget | |", "|---|---:|---:|---|");
    for (const [c, cents] of [...(totals.get(m) ?? new Map<string, number>())].sort(([a], [b]) =>
      a.localeCompare(b),
    )) {
      const b = (budgets[c] ?? 0) * 100;
      const mark = cents > b ? "✖ over" : cents >= b * 0.9 ? "⚠ near" : "";
      out.push(`| ${c} | ${(cents / 100).toFixed(2)} | ${(b / 100).toFixed(2)} | ${mark} |`);
    }
    out.push("");
  }
  return out.join("\n");
}

const out = resolve(import.meta.dirname, "../../public/examples/compaction-example.jsonl");
writeFileSync(out, run());
console.log(`wrote ${out}: ${lines.length} lines, ${Math.round(chars / 4)} tokens (chars/4)`);
