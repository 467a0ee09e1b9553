/** `npm run conformance:refresh`: installs pi 1.6 if needed, rebuilds sessions/ with pi's SessionManager and writes pi's views to references/. */
import { join, resolve } from "node:path";
import { ensurePi16, runWithPi16 } from "./pi16.ts";

const here = import.meta.dirname;
const repoRoot = resolve(here, "..", "..");

function run(script: string, args: string[], pi: ReturnType<typeof ensurePi16>): void {
  const result = runWithPi16(join(here, "oracle", script), args, { pi, cwd: repoRoot });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  if (result.status !== 0) {
    console.error(`${script} failed with status ${result.status}`);
    process.exit(result.status);
  }
}

const pi = ensurePi16();
console.log(`pi 1.6 at ${pi.packageDir}\nnode at ${pi.node}`);
run("build-sessions.mjs", [join(here, "sessions")], pi);
run("write-references.mjs", [repoRoot], pi);
