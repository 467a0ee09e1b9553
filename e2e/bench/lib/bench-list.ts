/** The benchmark modules of e2e/bench (every *.bench.ts), for the runner and its unit test. */
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

export const BENCH_DIR = resolve(import.meta.dirname, "..");

export interface BenchModule {
  default: () => Promise<void>;
}

/** File names of the benchmarks, sorted; only those whose name contains one of `wanted` if given. */
export function benchFiles(wanted: readonly string[] = []): string[] {
  return readdirSync(BENCH_DIR)
    .filter((f) => f.endsWith(".bench.ts"))
    .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
    .sort();
}

/** Imports one benchmark module (nothing runs until its default export is called). */
export async function loadBench(file: string): Promise<BenchModule> {
  const mod = (await import(pathToFileURL(resolve(BENCH_DIR, file)).href)) as Partial<BenchModule>;
  if (typeof mod.default !== "function") throw new Error(`${file} has no default export to run`);
  return mod as BenchModule;
}
