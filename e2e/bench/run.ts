/**
 * `npm run bench`: runs every bench/*.bench.ts module in turn (or those named on the command
 * line, e.g. `npm run bench -- compaction`). Each module's default export prints its numbers.
 */
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dir = import.meta.dirname;
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();
if (files.length === 0) {
  console.error(`no benchmark matches ${wanted.join(" ")}`);
  process.exit(1);
}
for (const f of files) {
  console.log(`\n=== ${f}`);
  const mod = (await import(pathToFileURL(resolve(dir, f)).href)) as { default: () => Promise<void> };
  await mod.default();
}
