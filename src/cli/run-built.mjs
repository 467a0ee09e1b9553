// Runs the CLI built ahead (dist-cli/main.js), building it first when it is missing or older than src/.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const root = join(import.meta.dirname, "..", "..");
const built = join(root, "dist-cli", "main.js");
const newest = (dir) => {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
};
let stale = true;
try {
  stale = statSync(built).mtimeMs < newest(join(root, "src"));
} catch {}
if (stale) {
  const r = spawnSync("npx", ["vite", "build", "-c", "vite.cli.config.ts", "--logLevel", "error"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
// The CLI runs when it is the script node was given: say it is.
process.argv[1] = built;
await import(pathToFileURL(built).href);
