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

const ROOT = resolve(import.meta.dirname, "../../..");
const PI_CHILD = resolve(import.meta.dirname, "open-pi16.child.mjs");
const CUTPOINT_CHILD = resolve(import.meta.dirname, "open-cutpoint.child.ts");

/** What a child prints (one JSON line). */
export interface OpenRun {
  totalMs: number;
  /** CPU time (user + system, all threads) over the same span: less sensitive to a busy machine. */
  cpuMs: number;
  phases: Record<string, number>;
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

function runCutpoint(node: string, file: string): OpenRun {
  const run = spawnSync(node, ["--import", "tsx", CUTPOINT_CHILD, file], { cwd: ROOT, encoding: "utf8" });
  if (run.error) throw run.error;
  return parseRun("Cutpoint", run);
}

interface Summary {
  ms: number;
  cpuMs: number;
  peakMB: number;
  baselineMB: number;
  phases: Record<string, number>;
  messages: number;
  entries: number;
}

function summarize(runs: OpenRun[]): Summary {
  const phases: Record<string, number> = {};
  for (const name of Object.keys(runs[0]!.phases)) phases[name] = median(runs.map((r) => r.phases[name]!));
  return {
    ms: median(runs.map((r) => r.totalMs)),
    cpuMs: median(runs.map((r) => r.cpuMs)),
    peakMB: median(runs.map((r) => r.peakMB)),
    baselineMB: median(runs.map((r) => r.baselineMB)),
    phases,
    messages: runs[0]!.messages,
    entries: runs[0]!.entries,
  };
}

const phaseText = (s: Summary) =>
  Object.entries(s.phases)
    .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
    .join(", ");

function line(label: string, s: Summary): string {
  return `  ${label.padEnd(22)} ${`${s.ms.toFixed(0)} ms`.padStart(9)} ${`${s.cpuMs.toFixed(0)} ms`.padStart(9)} ${`${s.peakMB.toFixed(0)} MB`.padStart(9)} ${`(${s.baselineMB.toFixed(0)} MB)`.padStart(10)}   ${phaseText(s)}`;
}

const ratio = (ours: number, theirs: number) =>
  `${(ours / theirs).toFixed(2)}x${ours <= theirs ? " ok" : " BEHIND"}`;

/** Writes the session to a temporary file, runs the rounds, prints the table. */
export function openSideBySide(text: string, rounds = 5): void {
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
    for (let r = 0; r < rounds; r++) {
      if (pi) piRuns.push(parseRun("pi 1.6", runWithPi16(PI_CHILD, [file], { pi, cwd: ROOT })));
      ourRuns.push(runCutpoint(node, file));
    }
    const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
    console.log(
      `  open + build the context, one child process per run on Node ${version}, median of ${rounds} rounds:`,
    );
    console.log(
      `  ${"".padEnd(22)} ${"time".padStart(9)} ${"CPU".padStart(9)} ${"peak RSS".padStart(9)} ${"(start)".padStart(10)}   phases`,
    );
    const ours = summarize(ourRuns);
    if (pi) {
      const theirs = summarize(piRuns);
      console.log(line("pi 1.6", theirs));
      console.log(line("Cutpoint core", ours));
      console.log(
        `  ${"Cutpoint / pi".padEnd(22)} ${ratio(ours.ms, theirs.ms).padStart(9)} ${ratio(ours.cpuMs, theirs.cpuMs).padStart(9)} ${ratio(ours.peakMB, theirs.peakMB).padStart(9)}   (goal: ahead on time and memory)`,
      );
      if (ours.messages !== theirs.messages || ours.entries !== theirs.entries)
        console.log(
          `  THE RESULTS DIFFER: pi ${theirs.entries} entries / ${theirs.messages} context messages, Cutpoint ${ours.entries} / ${ours.messages}`,
        );
      else console.log(`    both: ${ours.entries} entries, ${ours.messages} context messages`);
    } else console.log(line("Cutpoint core", ours));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
