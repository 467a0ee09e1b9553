/**
 * `npm run bench -- coverage`: the coverage check on the summarized range of the ~91k-entry,
 * 100 MB session, in Node. Extraction cold (first read of every message), warm (the same plan:
 * findings kept per range) and after re-planning (a new plan over the same messages: findings
 * reused by message identity, coverage-cache.ts), checking a summary against the items (what runs
 * on each keystroke of an edit), the offline summary, and masking. Target: extraction plus check
 * under 100 ms. Medians of several runs; numbers scale with the machine's load.
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import {
  checkCoverage,
  checkProbes,
  coverageFigure,
  coverageRanges,
  deriveProbes,
  generateOfflineCompaction,
  planCompaction,
  planCoverageItems,
  planMasking,
  probesFigure,
  startCoverageExtraction,
} from "../../src/core/compaction/index.ts";
import { buildTreeIndex, getPath, parseSessionJsonl, resolveLeafId } from "../../src/core/session/index.ts";
import { generateBigSession } from "./lib/big-session.ts";

const SETTINGS = { keepRecentTokens: 20000, reserveTokens: 16384 };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** CPU time of the main thread in ms (less sensitive than wall time to other processes on a shared machine). */
const cpuMs = () => process.cpuUsage().user / 1000;

function measure(fn: () => unknown, runs = 7, warmup = 1): { wall: number; cpu: number } {
  for (let i = 0; i < warmup; i++) fn();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = cpuMs();
    const t0 = performance.now();
    fn();
    walls.push(performance.now() - t0);
    cpus.push(cpuMs() - c0);
  }
  return { wall: median(walls), cpu: median(cpus) };
}

function once(fn: () => unknown): { wall: number; cpu: number } {
  return measure(fn, 1, 0);
}

function row(label: string, t: { wall: number; cpu: number }, target?: number, note = ""): void {
  const ms = t.wall;
  const ratio =
    target === undefined
      ? ""
      : `  (target <= ${target} ms: ${(ms / target).toFixed(2)}x${ms <= target ? " ok" : " OVER"})`;
  const times = `${ms.toFixed(1)} ms wall, ${t.cpu.toFixed(0)} ms cpu`;
  console.log(`  ${label.padEnd(46)} ${times.padStart(26)}${ratio}${note ? `  ${note}` : ""}`);
}

export default async function coverageBench(): Promise<void> {
  const big = generateBigSession();
  const parsed = parseSessionJsonl(big.text);
  if (!parsed.ok) throw new Error(`big session does not parse: ${parsed.error.message}`);
  const entries = parsed.value.entries;
  const path = getPath(buildTreeIndex(entries).byId, resolveLeafId(entries));
  console.log(
    `  load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}; session: ${entries.length} entries, ${(big.bytes / 1024 / 1024).toFixed(1)} MB`,
  );
  const planned = planCompaction(path, SETTINGS);
  if (!planned.ok) throw new Error(planned.reason);
  const plan = planned.plan;
  let n = 0;
  row(
    "materialize the summarized range (plan, lazy)",
    once(() => {
      n = plan.messagesToSummarize.messages.length + plan.turnPrefixMessages.messages.length;
    }),
    undefined,
    `(${n} messages)`,
  );
  let items = planCoverageItems({
    messagesToSummarize: { messages: [], entryIds: [] },
    turnPrefixMessages: { messages: [], entryIds: [] },
  });
  const cold = once(() => {
    items = planCoverageItems(plan);
  });
  row("extract items, cold", cold, 100, `(${items.length} distinct items)`);
  // The app's way (services/common/slices.ts): steps of 256 messages, in idle slices of at most
  // 8 ms. On a copy of the range (message objects never read), so that it is cold as well.
  const copy = coverageRanges(plan).map((r) => ({ ...r, messages: structuredClone(r.messages) }));
  const extraction = startCoverageExtraction(copy);
  const steps: number[] = [];
  const c0 = cpuMs();
  for (let done = false; !done; ) {
    const t0 = performance.now();
    done = extraction.step(256);
    steps.push(performance.now() - t0);
  }
  const t1 = performance.now();
  const slicedItems = extraction.items();
  const mergeMs = performance.now() - t1;
  row(
    "extract items in steps of 256 messages, cold",
    { wall: steps.reduce((a, b) => a + b, 0) + mergeMs, cpu: cpuMs() - c0 },
    undefined,
    `(${steps.length} steps, longest ${Math.max(...steps).toFixed(1)} ms, median ${median(steps).toFixed(2)} ms; final merge ${mergeMs.toFixed(1)} ms; same items: ${JSON.stringify(slicedItems) === JSON.stringify(items) ? "yes" : "NO"})`,
  );
  row(
    "extract items, warm",
    measure(() => planCoverageItems(plan)),
    100,
  );
  // A new plan over the same path: new range arrays holding the same message objects.
  const replanned: { wall: number; cpu: number }[] = [];
  for (let r = 0; r < 5; r++) {
    const again = planCompaction(path, SETTINGS);
    if (!again.ok) throw new Error(again.reason);
    n = again.plan.messagesToSummarize.messages.length + again.plan.turnPrefixMessages.messages.length;
    replanned.push(once(() => planCoverageItems(again.plan)));
  }
  row(
    "extract items after re-planning",
    {
      wall: median(replanned.map((t) => t.wall)),
      cpu: median(replanned.map((t) => t.cpu)),
    },
    100,
    "(a new plan, the same messages)",
  );

  const offline = generateOfflineCompaction(plan);
  if (!offline.ok) throw new Error(offline.error);
  const summary = offline.fields.summary;
  const report = checkCoverage(summary, items);
  row(
    "check the offline summary against the items",
    measure(() => checkCoverage(summary, items)),
    undefined,
    `(${(summary.length / 1024).toFixed(0)} KB summary, ${coverageFigure(report)})`,
  );
  let probes = deriveProbes(coverageRanges(plan), items);
  row(
    "derive the probes (items + the range's last messages)",
    measure(() => {
      probes = deriveProbes(coverageRanges(plan), items);
    }),
    undefined,
    `(${probes.map((p) => p.id).join(", ")})`,
  );
  row(
    "check the offline summary against the probes",
    measure(() => checkProbes(summary, probes)),
    undefined,
    `(${probesFigure(checkProbes(summary, probes))})`,
  );
  row(
    "extract + check, warm",
    measure(() => checkCoverage(summary, planCoverageItems(plan))),
    100,
  );
  row(
    "offline summary (generateOfflineCompaction)",
    measure(() => generateOfflineCompaction(plan), 3),
    undefined,
  );
  let masking: ReturnType<typeof planMasking> | undefined;
  const t = once(() => {
    masking = planMasking(path, {
      newId: (i) => `mask${i.toString(16).padStart(6, "0")}`,
      timestamp: "2026-01-01T00:00:00.000Z",
      beforeIndex: plan.firstKeptIndex,
    });
  });
  row(
    "plan masking outside the kept range",
    t,
    undefined,
    `(${masking?.edits.length} edits, saves ~${masking?.savedTokens.toLocaleString("en-US")} estimated tokens; the generated session's reported usage is ${masking?.tokensBefore.toLocaleString("en-US")})`,
  );
}
