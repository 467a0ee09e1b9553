/**
 * Child process of `npm run bench -- compaction`, run with pi 1.6's Node 22: opens a session file
 * the way pi 1.6 resumes one (SessionManager.open: header scan, loadEntriesFromFile, index) and
 * builds its context (buildSessionContext), then prints one JSON line: phase times and the
 * process's memory. pi's package folder comes in PI16_PACKAGE_DIR (see src/conformance/pi16.ts).
 * Usage: PI16_PACKAGE_DIR=… node e2e/bench/lib/open-pi16.child.mjs <file>
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const file = process.argv[2];
const dir = process.env.PI16_PACKAGE_DIR;
if (!file || !dir) throw new Error("usage: PI16_PACKAGE_DIR=<pi package> open-pi16.child.mjs <file>");
const { SessionManager } = await import(pathToFileURL(join(dir, "dist/core/session-manager.js")).href);
const mb = (bytes) => bytes / 1024 / 1024;
const baselineMB = mb(process.memoryUsage().rss);

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const session = SessionManager.open(file);
const t1 = performance.now();
const context = session.buildSessionContext();
const t2 = performance.now();

process.stdout.write(
  `${JSON.stringify({
    totalMs: t2 - t0,
    // CPU time of the process over the same span (all threads: the main thread and the GC helpers).
    cpuMs: (() => {
      const c = process.cpuUsage(cpu0);
      return (c.user + c.system) / 1000;
    })(),
    phases: { open: t1 - t0, context: t2 - t1 },
    peakMB: process.resourceUsage().maxRSS / 1024,
    baselineMB,
    entries: session.getEntryCount(),
    messages: context.messages.length,
  })}\n`,
);
