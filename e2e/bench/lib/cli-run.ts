/**
 * `context <file> --json` as a person runs it, for the side-by-side bench: the CLI built ahead
 * (dist-cli/main.js, `npm run build:cli`) in its own process, output to /dev/null; the whole
 * process's wall time (start-up included), CPU time and peak RSS (peak-at-exit.mjs).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";

const ROOT = resolve(import.meta.dirname, "../../..");
export const CLI_BUILT = resolve(ROOT, "dist-cli/main.js");
const PEAK = resolve(import.meta.dirname, "peak-at-exit.mjs");

export interface CliRun {
  totalMs: number;
  cpuMs: number;
  peakMB: number;
}

/** Builds dist-cli/main.js from the sources (a few seconds); the bench measures what it built. */
export function buildCli(): void {
  const run = spawnSync("npx", ["vite", "build", "-c", "vite.cli.config.ts", "--logLevel", "error"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (run.status !== 0 || !existsSync(CLI_BUILT)) throw new Error(`building the CLI failed: ${run.stderr}`);
}

/** One run of `node [pre...] <entry> context <file> --json > /dev/null`. */
export function runCliContext(node: string, file: string, pre: string[] = [], entry = CLI_BUILT): CliRun {
  const t = performance.now();
  const run = spawnSync(node, ["--import", PEAK, ...pre, entry, "context", file, "--json"], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "ignore", "pipe"],
  });
  const totalMs = performance.now() - t;
  if (run.status !== 0) throw new Error(`the CLI failed (${run.status}): ${run.stderr.slice(0, 2000)}`);
  const line = run.stderr.split("\n").findLast((l) => l.startsWith("BENCH "));
  if (!line) throw new Error("the CLI printed no BENCH line");
  return { totalMs, ...(JSON.parse(line.slice(6)) as { cpuMs: number; peakMB: number }) };
}
