/**
 * `npm run bench -- compaction`: the compaction engine on the ~91k-entry, 100 MB session, in Node.
 * Medians of several runs after warm-up, with ratios to the targets (pi's own numbers in brackets):
 * full plan <= 30 ms (pi 29 ms), re-plan after appending one entry <= 1 ms, building the context
 * <= 20 ms (pi 480 ms), listing every valid cut point with kept tokens <= 30 ms, and the
 * tokenizer estimator's first-load time and throughput. First, side by side in child processes
 * (lib/open-side-by-side.ts): pi 1.6 and Cutpoint's core opening the session file and building its
 * context, time and peak memory (goal: Cutpoint ahead of pi on both).
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { createPlanner, listCutPoints, planCompaction } from "../../src/core/compaction/index.ts";
import { loadTokenizerEstimator } from "../../src/core/compaction/tokenizer-estimator.ts";
import { messageParts } from "../../src/core/compaction/tokens.ts";
import {
  type AgentMessage,
  buildSessionContext,
  currentPath,
  parseSessionJsonl,
  type SessionEntry,
} from "../../src/core/session/index.ts";
import { generateBigSession } from "./lib/big-session.ts";
import { openSideBySide } from "./lib/open-side-by-side.ts";

const SETTINGS = { keepRecentTokens: 20000, reserveTokens: 16384 };
const WARMUP = 2;
const RUNS = 9;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function measure(fn: () => unknown, runs = RUNS, warmup = WARMUP): number {
  for (let i = 0; i < warmup; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

function row(label: string, ms: number, target?: number, note = ""): void {
  const value = ms < 1 ? `${ms.toFixed(3)} ms` : `${ms.toFixed(1)} ms`;
  const ratio =
    target === undefined
      ? ""
      : `  (target <= ${target} ms: ${(ms / target).toFixed(2)}x${ms <= target ? " ok" : " OVER"})`;
  console.log(`  ${label.padEnd(44)} ${value.padStart(12)}${ratio}${note ? `  ${note}` : ""}`);
}

let appended = 0;
function newEntry(parentId: string): SessionEntry {
  appended++;
  return {
    type: "message",
    id: `bench${appended.toString(16).padStart(3, "0")}`,
    parentId,
    timestamp: "2026-01-01T00:00:00.000Z",
    message: { role: "user", content: `one more keystroke ${appended}`, timestamp: appended },
  } as SessionEntry;
}

export default async function compactionBench(): Promise<void> {
  // The tokenizer's first load must be measured before anything else imports it.
  const t0 = performance.now();
  const tokenizer = await loadTokenizerEstimator("gpt-4o");
  const tokenizerLoadMs = performance.now() - t0;

  const load = () =>
    `  load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")} (numbers scale with it on a shared machine)`;
  const big = generateBigSession();
  console.log(load());
  openSideBySide(big.text);
  const tp = performance.now();
  const parsed = parseSessionJsonl(big.text);
  const parseMs = performance.now() - tp;
  if (!parsed.ok) throw new Error(`big session does not parse: ${parsed.error.message}`);
  const entries = parsed.value.entries;
  const path = currentPath(entries);
  console.log(load());
  console.log(
    `  session: ${entries.length} entries, ${(big.bytes / 1024 / 1024).toFixed(1)} MB, path ${path.length}; parse ${parseMs.toFixed(0)} ms (not a target here)`,
  );

  // Full plan, one-shot (planCompaction: direct walks, estimates only the kept part): cold = the
  // very first plan (estimates computed); warm = estimates cached per message object.
  const tc = performance.now();
  const first = planCompaction(path, SETTINGS);
  const coldMs = performance.now() - tc;
  if (!first.ok) throw new Error(first.reason);
  row("full plan, one-shot, cold", coldMs, 30, "[pi 29 ms]");
  row(
    "full plan, one-shot, warm",
    measure(() => planCompaction(path, SETTINGS)),
    30,
    "[pi 29 ms]",
  );
  row(
    "full plan + file lists + summarized tokens",
    measure(() => {
      const r = planCompaction(path, SETTINGS);
      return r.ok && [r.plan.fileOps.readFiles.length, r.plan.summarizedTokens];
    }),
    30,
    "(what the preview shows)",
  );
  console.log(
    `    cut at path index ${first.plan.firstKeptIndex}, split ${first.plan.isSplitTurn}, summarizes ${first.plan.summarizeCount}, tokensBefore ${first.plan.tokensBefore} (${first.plan.tokensBeforeSource})`,
  );
  row(
    "incremental planner: first index of the path",
    measure(() => createPlanner().setPath(path), 5, 1),
    undefined,
    "(once per opened session)",
  );

  // Incremental: one planner, one entry appended per run, then a plan.
  const planner = createPlanner();
  const live = [...path];
  planner.setPath(live);
  const replan = () => {
    live.push(newEntry(live.at(-1)!.id));
    planner.setPath(live);
    const r = planner.plan(SETTINGS);
    if (!r.ok && r.code !== "nothing-to-summarize") throw new Error(r.reason);
  };
  row("re-plan after appending one entry", measure(replan, 51, 5), 1);
  row(
    "re-plan at a moved keep-recent (no append)",
    measure(() => planner.plan({ ...SETTINGS, keepRecentTokens: 35000 }), 51, 5),
    1,
  );
  row(
    "  + materialize messagesToSummarize",
    measure(() => planner.plan(SETTINGS).plan?.messagesToSummarize.messages.length),
    undefined,
    "(lazy: only when a summary is generated)",
  );

  row(
    "build the context (buildSessionContext)",
    measure(() => buildSessionContext(path)),
    20,
    "[pi 480 ms]",
  );
  const firstListing: number[] = [];
  for (let k = 0; k < 5; k++) {
    const fresh = createPlanner();
    fresh.setPath(path);
    const t = performance.now();
    fresh.listCutPoints();
    firstListing.push(performance.now() - t);
  }
  row("list all valid cut points, first time", median(firstListing), 30, "(indexed planner)");
  row(
    "list all valid cut points after one append",
    measure(
      () => {
        live.push(newEntry(live.at(-1)!.id));
        planner.setPath(live);
        return planner.listCutPoints();
      },
      51,
      5,
    ),
    30,
    "(cached; kept tokens read live)",
  );
  row(
    "list all valid cut points, one-shot",
    measure(() => listCutPoints(path)),
    30,
    `${listCutPoints(path).length} points, indexing the path included`,
  );

  // Tokenizer estimator: first load (dynamic import) and throughput on uncached messages.
  if (!tokenizer.ok) {
    console.log(`  tokenizer: failed to load: ${tokenizer.error}`);
    return;
  }
  row(
    "tokenizer estimator first load (o200k_base)",
    tokenizerLoadMs,
    undefined,
    "[measured ~400 ms in the browser]",
  );
  const messages: AgentMessage[] = [];
  let chars = 0;
  for (const e of path) {
    if (e.type !== "message") continue;
    const m = (e as { message: AgentMessage }).message;
    messages.push(m);
    for (const t of messageParts(m).texts) chars += t.length;
    if (chars > 8_000_000) break;
  }
  const tt = performance.now();
  let tokens = 0;
  for (const m of messages) tokens += tokenizer.value.estimateMessage(m);
  const tokMs = performance.now() - tt;
  const mb = chars / 1e6;
  console.log(
    `  ${"tokenizer estimator throughput".padEnd(44)} ${`${(mb / (tokMs / 1000)).toFixed(1)} MB/s`.padStart(12)}  (${mb.toFixed(1)} M chars, ${messages.length} messages, ${tokens} tokens in ${tokMs.toFixed(0)} ms; [4-8 MB/s measured])`,
  );
  let piTokens = 0;
  const { PI_ESTIMATOR } = await import("../../src/core/compaction/tokens.ts");
  for (const m of messages) piTokens += PI_ESTIMATOR.estimateMessage(m);
  console.log(
    `    chars/4 on the same messages: ${piTokens} tokens (chars/4 vs tokenizer: ${((piTokens / tokens - 1) * 100).toFixed(0)} %)`,
  );
}
