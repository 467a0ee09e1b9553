/**
 * Child process of `npm run bench -- compaction`: opens a session file with Cutpoint's core as the
 * CLI and the import worker do (the file read in 1 MB pieces into the byte parser, the current
 * path, the context) and prints one JSON line: phase times and the process's memory.
 * Usage: node --import tsx e2e/bench/lib/open-cutpoint.child.ts <file>
 */
import { closeSync, openSync, readSync } from "node:fs";
import { performance } from "node:perf_hooks";
import {
  buildSessionContext,
  createSessionByteParser,
  currentPath,
} from "../../../src/core/session/index.ts";

const file = process.argv[2];
if (!file) throw new Error("usage: open-cutpoint.child.ts <file>");
const mb = (bytes: number) => bytes / 1024 / 1024;
const baselineMB = mb(process.memoryUsage().rss);

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const parser = createSessionByteParser();
const fd = openSync(file, "r");
// A plain Uint8Array, not a Buffer: the parser copies a line's unfinished tail with slice(), which
// on a Node Buffer is a view, and this buffer is reused for the next piece.
const buffer = new Uint8Array(1024 * 1024);
try {
  for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) parser.push(buffer.subarray(0, n));
} finally {
  closeSync(fd);
}
const parsed = parser.finish();
if (!parsed.ok) throw new Error(parsed.error.message);
const t1 = performance.now();
const path = currentPath(parsed.value.entries);
const t2 = performance.now();
const context = buildSessionContext(path);
const t3 = performance.now();

process.stdout.write(
  `${JSON.stringify({
    totalMs: t3 - t0,
    // CPU time of the process over the same span (all threads: the main thread and the GC helpers).
    cpuMs: (() => {
      const c = process.cpuUsage(cpu0);
      return (c.user + c.system) / 1000;
    })(),
    phases: { "read+parse": t1 - t0, path: t2 - t1, context: t3 - t2 },
    // getrusage's peak resident set size of this process (kilobytes on Linux).
    peakMB: process.resourceUsage().maxRSS / 1024,
    baselineMB,
    entries: parsed.value.entries.length,
    messages: context.messages.length,
  })}\n`,
);
