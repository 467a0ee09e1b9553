/**
 * `npm run bench`: runs every bench/*.bench.ts module in turn (or those named on the command
 * line, e.g. `npm run bench -- compaction`). Each module's default export prints its numbers.
 * A benchmark that throws is reported and the next one still runs; the exit code is 1 if any
 * failed.
 */
import { benchFiles, loadBench } from "./lib/bench-list.ts";

const wanted = process.argv.slice(2);
const files = benchFiles(wanted);
if (files.length === 0) {
  console.error(`no benchmark matches ${wanted.join(" ")}`);
  process.exit(1);
}
const failed: string[] = [];
for (const f of files) {
  console.log(`\n=== ${f}`);
  const t0 = Date.now();
  try {
    await (await loadBench(f)).default();
    console.log(`=== ${f} done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  } catch (error) {
    failed.push(f);
    console.error(
      `=== ${f} FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }
}
console.log(
  `\n${files.length - failed.length} of ${files.length} benchmarks ran${failed.length ? `; failed: ${failed.join(", ")}` : ""}`,
);
process.exit(failed.length > 0 ? 1 : 0);
