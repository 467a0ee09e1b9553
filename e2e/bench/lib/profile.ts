/**
 * Where the main thread's time goes, for benchmarks of the built app: a CPU profile (CDP) over a
 * stretch of work, summed by function (self time, and total time of the functions on the stack),
 * and the long tasks (PerformanceObserver "longtask") recorded by the page.
 * Names are the build's: build with `--minify false` for readable ones.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CDPSession, Page } from "@playwright/test";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

export interface Profiler {
  stop(): Promise<CpuProfile>;
}

/** Starts sampling the page's JS every `intervalUs` microseconds. */
export async function startProfiler(page: Page, intervalUs = 250): Promise<Profiler> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: intervalUs });
  await cdp.send("Profiler.start");
  return {
    async stop() {
      const { profile } = (await cdp.send("Profiler.stop")) as { profile: CpuProfile };
      await cdp.detach();
      return profile;
    },
  };
}

const nameOf = (n: ProfileNode) => {
  const f = n.callFrame;
  const file = f.url.split("/").pop() || "(native)";
  return `${f.functionName || "(anonymous)"} ${file}:${f.lineNumber + 1}`;
};

/** Self and total ms per function, largest first. Idle and the profiler's own nodes left out. */
export function summarizeProfile(profile: CpuProfile): {
  self: [string, number][];
  total: [string, number][];
} {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  profile.samples?.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0));
  });
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const name = nameOf(node);
    if (/^\((idle|program|garbage collector)\)/.test(name) && node.callFrame.url === "") {
      if (name.startsWith("(garbage collector)"))
        self.set("(garbage collector)", (self.get("(garbage collector)") ?? 0) + us / 1000);
      continue;
    }
    self.set(name, (self.get(name) ?? 0) + us / 1000);
    // Each function on the stack once (recursion counted once).
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const fn = nameOf(byId.get(at)!);
      if (seen.has(fn)) continue;
      seen.add(fn);
      total.set(fn, (total.get(fn) ?? 0) + us / 1000);
    }
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return { self: sorted(self), total: sorted(total) };
}

/** Prints the top `n` functions by self time and by total time. */
export function printProfile(title: string, profile: CpuProfile, n = 15): void {
  const { self, total } = summarizeProfile(profile);
  const fmt = ([name, ms]: [string, number]) => `    ${ms.toFixed(1).padStart(8)} ms  ${name}`;
  console.log(`  ${title}: CPU profile, self time`);
  for (const row of self.slice(0, n)) console.log(fmt(row));
  console.log(`  ${title}: CPU profile, total time (app functions)`);
  for (const row of total.filter(([name]) => !name.startsWith("(")).slice(0, n)) console.log(fmt(row));
  console.log(
    `  ${title}: busy stretches of 50 ms or more (ms after the start; heaviest app functions, total ms)`,
  );
  for (const line of busyStretches(profile)) console.log(`    ${line}`);
}

/**
 * With STORAGE_BENCH_PROFILE_DIR set, writes the profile there as `<name>.cpuprofile` (DevTools'
 * Performance panel opens it) and says where.
 */
export function saveProfile(name: string, profile: CpuProfile): void {
  const dir = process.env.STORAGE_BENCH_PROFILE_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  console.log(`  ${name}: CPU profile written to ${file}`);
}

/** "start→duration" (ms after `t0`) of each long task, longest first, at most `n`. */
export function formatLongTasks(
  tasks: readonly { start: number; duration: number }[],
  t0: number,
  n = 8,
): string {
  const sorted = [...tasks].sort((a, b) => b.duration - a.duration).slice(0, n);
  const busy = tasks.reduce((s, t) => s + t.duration, 0);
  return `${tasks.length} long tasks, ${Math.round(busy)} ms in all; longest: ${sorted
    .map((t) => `${Math.round(t.start - t0)}→${Math.round(t.duration)}`)
    .join(", ")}`;
}

/** One event of a Chromium trace (the fields the summaries read). */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string; frame?: string } };
}

/** The trace categories `longTaskBreakdown` reads. */
export const TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "blink"];

/**
 * The main thread's tasks longer than `minMs` in a Chromium trace, each with what took its time:
 * the events directly inside it (script by function and file, GC, layout, …), largest first.
 */
export function longTaskBreakdown(buffer: Buffer, minMs = 50): string[] {
  const { traceEvents } = JSON.parse(buffer.toString("utf8")) as { traceEvents: TraceEvent[] };
  const mains = traceEvents.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
  const onMain = (e: TraceEvent) => mains.some((m) => m.pid === e.pid && m.tid === e.tid);
  const complete = traceEvents
    .filter((e) => e.ph === "X" && (e.dur ?? 0) > 0 && onMain(e))
    .sort((a, b) => a.ts - b.ts);
  const tasks = complete.filter((e) => e.name === "RunTask" && (e.dur ?? 0) >= minMs * 1000);
  const label = (e: TraceEvent) => {
    const d = e.args?.data;
    if (d?.functionName || d?.url)
      return `${e.name} ${d.functionName || "(anonymous)"} ${(d.url ?? "").split("/").pop()}`;
    return e.name;
  };
  const t0 = tasks[0]?.ts ?? 0;
  return tasks.map((task) => {
    const end = task.ts + (task.dur ?? 0);
    const inside = complete.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end);
    // Self time per label: each event's time less that of the events nested in it.
    const self = new Map<string, number>();
    const stack: { end: number; label: string }[] = [];
    for (const e of inside) {
      while (stack.length > 0 && stack[stack.length - 1]!.end <= e.ts) stack.pop();
      const parent = stack[stack.length - 1];
      const ms = (e.dur ?? 0) / 1000;
      if (parent) self.set(parent.label, (self.get(parent.label) ?? 0) - ms);
      const name =
        parent && e.name !== "FunctionCall" && !/GC|Scavenge|Mark/.test(e.name) ? parent.label : label(e);
      self.set(name, (self.get(name) ?? 0) + ms);
      stack.push({ end: e.ts + (e.dur ?? 0), label: name });
    }
    const parts = [...self]
      .filter(([, ms]) => ms >= 1)
      .sort((x, y) => y[1] - x[1])
      .slice(0, 4)
      .map(([n, ms]) => `${n} ${ms.toFixed(0)}`);
    return `${((task.ts - t0) / 1000).toFixed(0)} ms: ${((task.dur ?? 0) / 1000).toFixed(0)} ms = ${parts.join(", ")}`;
  });
}

/**
 * The stretches of a CPU profile where the main thread was busy for at least `minMs` without an
 * idle sample (about the long tasks), each with its `n` heaviest app functions by total time
 * (each function once per sample, so nested calls are not counted twice) and by self time. Start times are ms
 * after the profile's start.
 */
export function busyStretches(profile: CpuProfile & { startTime?: number }, minMs = 50, n = 5): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const out: string[] = [];
  let t = 0;
  let start = -1;
  let busy = new Map<string, number>();
  let own = new Map<string, number>();
  let busyMs = 0;
  const flush = (end: number) => {
    if (start >= 0 && end - start >= minMs) {
      const top = [...busy]
        .filter(([name]) => !name.startsWith("("))
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([name, ms]) => `${name} ${ms.toFixed(0)}`);
      const self = [...own]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([name, ms]) => `${name} ${ms.toFixed(0)}`);
      out.push(
        `${start.toFixed(0)} ms: ${(end - start).toFixed(0)} ms (${busyMs.toFixed(0)} sampled) = ${top.join(", ")}; self: ${self.join(", ")}`,
      );
    }
    start = -1;
    busy = new Map();
    own = new Map();
    busyMs = 0;
  };
  for (let i = 0; i < samples.length; i++) {
    const dt = (deltas[i] ?? 0) / 1000;
    t += dt;
    const node = byId.get(samples[i]!)!;
    if (node.callFrame.functionName === "(idle)") {
      flush(t - dt);
      continue;
    }
    if (start < 0) start = t - dt;
    const next = (deltas[i + 1] ?? 0) / 1000;
    busyMs += next;
    const selfName = nameOf(node);
    own.set(selfName, (own.get(selfName) ?? 0) + next);
    const seen = new Set<string>();
    for (let at: number | undefined = node.id; at !== undefined; at = parent.get(at)) {
      const name = nameOf(byId.get(at)!);
      if (seen.has(name)) continue;
      seen.add(name);
      busy.set(name, (busy.get(name) ?? 0) + next);
    }
  }
  flush(t);
  return out;
}
