/**
 * Opening the 100 MB session side by side, for `npm run bench -- compaction`: pi 1.6
 * (SessionManager.open + buildSessionContext) against Cutpoint's core (byte parser + currentPath +
 * buildSessionContext), each in its own child process on pi's Node 22 (src/conformance/pi16.ts),
 * in alternating rounds; prints the medians of time and peak memory with Cutpoint / pi ratios.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ensurePi16, type Pi16, runWithPi16 } from "../../../src/conformance/pi16.ts";
import { buildCli, type CliRun, runCliContext } from "./cli-run.ts";

const ROOT = resolve(import.meta.dirname, "../../..");
const PI_CHILD = resolve(import.meta.dirname, "open-pi16.child.ts");

/** What a child prints (one JSON line, phase-timer.ts). */
export interface OpenRun {
  totalMs: number;
  /** CPU time (user + system, all threads) over the same span: less sensitive to a busy machine. */
  cpuMs: number;
  phases: Record<string, number>;
  phasesCpu: Record<string, number>;
  /** Peak resident set size of the child (getrusage). */
  peakMB: number;
  /** Resident set size after start-up and imports, before opening. */
  baselineMB: number;
  entries: number;
  messages: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function parseRun(who: string, run: { status: number | null; stdout: string; stderr: string }): OpenRun {
  if (run.status !== 0) throw new Error(`${who} child failed (${run.status}): ${run.stderr.slice(0, 2000)}`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1)!) as OpenRun;
}

/**
 * Node 22 strips the child's types itself; without pi's Node 22 the system node needs tsx.
 * `root`: the checkout whose core is measured (another one: a previous build, see openSideBySide).
 */
function runCutpoint(node: string, file: string, root = ROOT): OpenRun {
  const child = resolve(root, "e2e/bench/lib/open-cutpoint.child.ts");
  const args = node === process.execPath ? ["--import", "tsx", child, file] : [child, file];
  const run = spawnSync(node, args, { cwd: root, encoding: "utf8" });
  if (run.error) throw run.error;
  return parseRun(root === ROOT ? "Cutpoint" : `Cutpoint at ${root}`, run);
}

/** The median of each number over the CLI's runs. */
function medianCli(runs: CliRun[]): CliRun {
  return {
    totalMs: median(runs.map((r) => r.totalMs)),
    cpuMs: median(runs.map((r) => r.cpuMs)),
    peakMB: median(runs.map((r) => r.peakMB)),
  };
}

/** The median of each number over the runs (phase by phase). */
function summarize(runs: OpenRun[]): OpenRun {
  const med = (pick: (r: OpenRun) => number) => median(runs.map(pick));
  const phases: Record<string, number> = {};
  const phasesCpu: Record<string, number> = {};
  for (const name of Object.keys(runs[0]!.phases)) {
    phases[name] = med((r) => r.phases[name]!);
    phasesCpu[name] = med((r) => r.phasesCpu[name]!);
  }
  const { entries, messages } = runs[0]!;
  const [totalMs, cpuMs, peakMB, baselineMB] = [
    med((r) => r.totalMs),
    med((r) => r.cpuMs),
    med((r) => r.peakMB),
    med((r) => r.baselineMB),
  ];
  return { totalMs, cpuMs, phases, phasesCpu, peakMB, baselineMB, entries, messages };
}

const phaseText = (s: OpenRun) =>
  Object.entries(s.phases)
    .map(([k, v]) => `${k} ${v.toFixed(0)} (CPU ${s.phasesCpu[k]!.toFixed(0)}) ms`)
    .join(", ");

function line(label: string, s: OpenRun): string {
  const cells = [
    `${s.totalMs.toFixed(0)} ms`,
    `${s.cpuMs.toFixed(0)} ms`,
    `${s.peakMB.toFixed(0)} MB`,
    `${(s.peakMB - s.baselineMB).toFixed(0)} MB`,
  ];
  return `  ${label.padEnd(15)}${cells.map((c) => c.padStart(14)).join("")}   ${phaseText(s)}`;
}

const ratio = (ours: number, theirs: number) =>
  `${(ours / theirs).toFixed(2)}x${ours <= theirs ? " ok" : " BEHIND"}`;

/**
 * Writes the session to a temporary file, runs the rounds, prints the table. Environment:
 * CUTPOINT_BENCH_ROUNDS (default 5); CUTPOINT_BENCH_BASELINE, a folder holding another checkout
 * of the project (e.g. `git archive <commit> src e2e | tar -x -C /tmp/base`), whose core is
 * measured in the same rounds and printed as "previous build", with Cutpoint / previous ratios;
 * CUTPOINT_BENCH_CLI_BASELINE, another build of the CLI (a dist-cli/main.js, e.g. built from an
 * older commit with `npx vite build -c vite.cli.config.ts --outDir /tmp/cli-old`), run in the
 * same rounds and printed as "CLI previous".
 */
export function openSideBySide(
  text: string,
  rounds = Number(process.env.CUTPOINT_BENCH_ROUNDS ?? 5),
  baseline = process.env.CUTPOINT_BENCH_BASELINE,
  cliBaseline = process.env.CUTPOINT_BENCH_CLI_BASELINE,
): void {
  let pi: Pi16 | undefined;
  try {
    pi = ensurePi16();
  } catch (error) {
    console.log(`  pi 1.6 could not be installed (${String(error).slice(0, 200)}): Cutpoint only`);
  }
  const node = pi?.node ?? process.execPath;
  const dir = mkdtempSync(join(tmpdir(), "cutpoint-bench-"));
  const file = join(dir, "big-session.jsonl");
  writeFileSync(file, text);
  try {
    const piRuns: OpenRun[] = [];
    const ourRuns: OpenRun[] = [];
    const baseRuns: OpenRun[] = [];
    const cliRuns: CliRun[] = [];
    const cliBaseRuns: CliRun[] = [];
    buildCli();
    for (let r = 0; r < rounds; r++) {
      cliRuns.push(runCliContext(node, file));
      if (cliBaseline) cliBaseRuns.push(runCliContext(node, file, [], resolve(cliBaseline)));
      if (pi) piRuns.push(parseRun("pi 1.6", runWithPi16(PI_CHILD, [file], { pi, cwd: ROOT })));
      if (baseline) baseRuns.push(runCutpoint(node, file, resolve(baseline)));
      ourRuns.push(runCutpoint(node, file));
    }
    const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
    console.log(
      `  open + build the context, one child process per run on Node ${version}, median of ${rounds} rounds:`,
    );
    const head = ["time", "CPU", "peak RSS", "peak - start"];
    console.log(`  ${"".padEnd(15)}${head.map((h) => h.padStart(14)).join("")}   phases (median)`);
    const ours = summarize(ourRuns);
    const previous = baseRuns.length > 0 ? summarize(baseRuns) : undefined;
    const ratioRow = (label: string, theirs: OpenRun, goal: string) => {
      const ratios = [
        ratio(ours.totalMs, theirs.totalMs),
        ratio(ours.cpuMs, theirs.cpuMs),
        ratio(ours.peakMB, theirs.peakMB),
        ratio(ours.peakMB - ours.baselineMB, theirs.peakMB - theirs.baselineMB),
      ];
      console.log(`  ${label.padEnd(15)}${ratios.map((r) => r.padStart(14)).join("")}   ${goal}`);
    };
    if (previous) console.log(line("previous build", previous));
    if (!pi) {
      console.log(line("Cutpoint core", ours));
      if (previous) ratioRow("Cutpoint / prev", previous, `(previous build: ${baseline})`);
      return;
    }
    const theirs = summarize(piRuns);
    console.log(line("pi 1.6", theirs));
    console.log(line("Cutpoint core", ours));
    ratioRow("Cutpoint / pi", theirs, "(goal: ahead on all)");
    const cli = medianCli(cliRuns);
    const cliRow = (label: string, cells: string[], note: string) =>
      console.log(`  ${label.padEnd(15)}${cells.map((c) => c.padStart(14)).join("")}   ${note}`);
    const cliCells = (c: CliRun) => [
      `${c.totalMs.toFixed(0)} ms`,
      `${c.cpuMs.toFixed(0)} ms`,
      `${c.peakMB.toFixed(0)} MB`,
    ];
    if (cliBaseRuns.length > 0) cliRow("CLI previous", cliCells(medianCli(cliBaseRuns)), `(${cliBaseline})`);
    cliRow(
      "CLI context",
      cliCells(cli),
      "`npm run cli -- context <file> --json` (built ahead), whole process, output to /dev/null",
    );
    cliRow(
      "CLI / pi",
      [ratio(cli.totalMs, theirs.totalMs), ratio(cli.cpuMs, theirs.cpuMs), ratio(cli.peakMB, theirs.peakMB)],
      "(goal: within pi's open + build; the CLI's time includes Node's start-up and the output)",
    );
    if (previous) ratioRow("Cutpoint / prev", previous, `(previous build: ${baseline})`);
    console.log(
      "    start: RSS after start-up and imports, before opening (both children are TypeScript run by Node 22's type stripping)",
    );
    if (ours.messages !== theirs.messages || ours.entries !== theirs.entries)
      console.log(
        `  THE RESULTS DIFFER: pi ${theirs.entries} entries / ${theirs.messages} context messages, Cutpoint ${ours.entries} / ${ours.messages}`,
      );
    else console.log(`    both: ${ours.entries} entries, ${ours.messages} context messages`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
