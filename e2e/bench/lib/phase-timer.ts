/**
 * Timing for the bench's child processes (open-*.child.ts, run by Node 22 with its built-in type
 * stripping, no loader): wall and CPU time per named phase, the RSS before the first phase and the
 * peak RSS of the process, printed as one JSON line (OpenRun in open-side-by-side.ts).
 */
import { performance } from "node:perf_hooks";

export function phaseTimer() {
  const startMB = process.memoryUsage().rss / 1024 / 1024;
  const phases: Record<string, number> = {};
  const phasesCpu: Record<string, number> = {};
  return {
    phase<T>(name: string, run: () => T): T {
      const cpu = process.cpuUsage();
      const t = performance.now();
      const value = run();
      phases[name] = performance.now() - t;
      const c = process.cpuUsage(cpu);
      // CPU time of the whole process (the main thread and V8's helper threads, GC included).
      phasesCpu[name] = (c.user + c.system) / 1000;
      return value;
    },
    print(extra: { entries: number; messages: number }): void {
      const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
      const run = {
        totalMs: sum(phases),
        cpuMs: sum(phasesCpu),
        phases,
        phasesCpu,
        // getrusage's peak resident set size (kilobytes on Linux).
        peakMB: process.resourceUsage().maxRSS / 1024,
        baselineMB: startMB,
        ...extra,
      };
      process.stdout.write(`${JSON.stringify(run)}\n`);
    },
  };
}
