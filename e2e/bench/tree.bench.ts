/**
 * `npm run bench -- tree`: the session tree on a generated 100k-entry session with 1,000
 * branches, in the BUILT app in headless Chromium:
 * - tree view first paint: click "Tree" → rows painted (target <= 300 ms);
 * - navigation between leaves: pick another branch's tip in the tree → preview dialog shown, then
 *   "Skip summary" → the tip is the highlighted current leaf in the tree and the timeline shows
 *   it, one frame later (target <= 50 ms), end to end (a `leaf` entry is written to IndexedDB,
 *   tree and timeline rebuilt).
 * Serves CUTPOINT_DIST as given, or /tmp/dist-tree-bench rebuilt when stale (never dist/).
 * TREE_BENCH_ENTRIES / TREE_BENCH_BRANCHES change the size.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { builtApp, launchChromium, serveStatic } from "./lib/browser.ts";
import type { TraceEvent } from "./lib/profile.ts";

const TS = "2026-03-01T10:00:00.000Z";

/** Deterministic PRNG (mulberry32). */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const usage = {
  input: 100,
  output: 20,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 120,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/**
 * `branches` chains of entries/branches entries each: chain 0 starts at the root, chain k > 0
 * forks from a random entry of an earlier chain. Turns: user, tool-use step, tool result, reply.
 */
export function generateTreeSession(entries: number, branches: number): { text: string; tips: string[] } {
  const random = rng(42);
  const per = Math.floor(entries / branches);
  const lines: string[] = [
    JSON.stringify({ type: "session", version: 3, id: "tree-bench", timestamp: TS, cwd: "/w" }),
  ];
  const ids: string[] = [];
  const tips: string[] = [];
  let n = 0;
  for (let b = 0; b < branches; b++) {
    let parent: string | null = b === 0 ? null : ids[Math.floor(random() * ids.length)]!;
    const count = b === branches - 1 ? entries - n : per;
    for (let i = 0; i < count; i++) {
      const id = (n++).toString(16).padStart(8, "0");
      const k = i % 4;
      const message =
        k === 0
          ? {
              role: "user",
              content: `Branch ${b}, step ${i}: please look at module ${i % 97}.`,
              timestamp: 1,
            }
          : k === 1
            ? {
                role: "assistant",
                content: [
                  { type: "toolCall", id: `c${id}`, name: "read", arguments: { path: `src/m${i % 97}.ts` } },
                ],
                api: "openai-completions",
                provider: "custom",
                model: "m",
                usage,
                stopReason: "toolUse",
                timestamp: 2,
              }
            : k === 2
              ? {
                  role: "toolResult",
                  toolCallId: `c${id}`,
                  toolName: "read",
                  content: [{ type: "text", text: `export const v${i} = ${i};` }],
                  isError: false,
                  timestamp: 3,
                }
              : {
                  role: "assistant",
                  content: [{ type: "text", text: `Module ${i % 97} looks fine on branch ${b}.` }],
                  api: "openai-completions",
                  provider: "custom",
                  model: "m",
                  usage,
                  stopReason: "stop",
                  timestamp: 4,
                };
      lines.push(JSON.stringify({ type: "message", id, parentId: parent, timestamp: TS, message }));
      ids.push(id);
      parent = id;
    }
    tips.push(parent!);
  }
  // A chain's last entry can get a later chain forked from it: then it is no tip (and, with a
  // single child, it sits inside a collapsed run of the tree view). Keep the real tips.
  const parents = new Set(lines.slice(1).map((l) => (JSON.parse(l) as { parentId: string | null }).parentId));
  return { text: `${lines.join("\n")}\n`, tips: tips.filter((t) => !parents.has(t)) };
}

/** Self time per event name on the renderer's main thread (nested complete events). */
function printTraceSummary(buffer: Buffer): void {
  writeFileSync("/tmp/tree-bench/moves.trace.json", buffer);
  const { traceEvents } = JSON.parse(buffer.toString("utf8")) as { traceEvents: TraceEvent[] };
  const main = traceEvents.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
  if (!main) return;
  // Only what happens between the marks around each move (the scrolling to find tips is left out).
  const marks = traceEvents.filter((e) => e.name === "bench-move-start" || e.name === "bench-move-end");
  const windows: [number, number][] = [];
  for (const m of marks.sort((a, b) => a.ts - b.ts)) {
    if (m.name === "bench-move-start") windows.push([m.ts, Number.POSITIVE_INFINITY]);
    else if (windows.length > 0) windows[windows.length - 1]![1] = m.ts;
  }
  const inMove = (e: TraceEvent) => windows.some(([a, b]) => e.ts >= a && e.ts < b);
  const events = traceEvents
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === "X" && (e.dur ?? 0) > 0 && inMove(e))
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const stack: { end: number; name: string }[] = [];
  for (const e of events) {
    while (stack.length > 0 && stack[stack.length - 1]!.end <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - (e.dur ?? 0));
    self.set(e.name, (self.get(e.name) ?? 0) + (e.dur ?? 0));
    stack.push({ end: e.ts + (e.dur ?? 0), name: e.name });
  }
  const total = windows.reduce((n, [a, b]) => n + (b - a), 0);
  const busy = traceEvents
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.name === "RunTask" && inMove(e))
    .reduce((n, e) => n + (e.dur ?? 0), 0);
  console.log(
    `  main thread busy during the moves: ${(busy / 1000 / windows.length).toFixed(1)} ms per move`,
  );
  console.log(
    `  main thread during the ${windows.length} moves (${(total / 1000).toFixed(0)} ms; self time, trace):`,
  );
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`  ${(us / 1000).toFixed(1).padStart(8)} ms  ${name}`);
}

/** Median of the runs that measured something (-1 = the tip's row was not reached). */
const median = (xs: number[]) => {
  const ok = xs.filter((x) => x >= 0).sort((a, b) => a - b);
  return ok.length === 0 ? Number.NaN : ok[Math.floor(ok.length / 2)]!;
};

export default async function bench(): Promise<void> {
  const entryCount = Number(process.env.TREE_BENCH_ENTRIES ?? 100_000);
  const branchCount = Number(process.env.TREE_BENCH_BRANCHES ?? 1_000);
  const dist = builtApp("/tmp/dist-tree-bench");
  const { text, tips } = generateTreeSession(entryCount, branchCount);
  mkdirSync("/tmp/tree-bench", { recursive: true });
  const file = "/tmp/tree-bench/tree-bench.jsonl";
  writeFileSync(file, text);
  console.log(
    `session: ${entryCount} entries, ${branchCount} branches, ${(text.length / 1024 / 1024).toFixed(1)} MB`,
  );

  const server = await serveStatic(dist);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // tsx keeps function names with a __name helper that page.evaluate bodies then reference.
    await page.addInitScript(() => {
      (globalThis as { __name?: unknown }).__name = (f: unknown) => f;
    });
    page.on("pageerror", (e) => console.error("page error:", e.message));
    page.on("console", (m) => {
      if (m.type() === "error") console.error("console error:", m.text());
    });
    await page.goto(server.url);
    await page.getByTestId("import-input").first().setInputFiles(file);
    await page.locator(".session-item .session-open").first().click({ timeout: 120_000 });
    await page.getByTestId("timeline").waitFor({ timeout: 120_000 });
    await page.getByRole("button", { name: "Tree", exact: true }).waitFor();
    // Let the app settle (loading, other panels' work) before measuring: wait for quick frames.
    const settle = async () => {
      for (let quiet = 0, k = 0; quiet < 5 && k < 200; k++) {
        const ms = await page.evaluate(() => {
          const t = performance.now();
          return new Promise<number>((r) => requestAnimationFrame(() => r(performance.now() - t)));
        });
        quiet = ms < 50 ? quiet + 1 : 0;
      }
    };
    await page.waitForFunction(() => {
      const b = [...document.querySelectorAll("button")].find((x) => x.textContent === "Tree");
      return b !== undefined && !b.disabled;
    });
    await settle();
    console.log("imported and opened");

    // Tree view first paint: from the click to the first frame after the rows exist.
    const paints: number[] = [];
    for (let run = 0; run < 5; run++) {
      const ms = await page.evaluate(async () => {
        const button = [...document.querySelectorAll("button")].find((b) => b.textContent === "Tree")!;
        const t0 = performance.now();
        button.click();
        const end = t0 + 30_000;
        while (
          !document.querySelector('[data-testid="tree-list"] [role="option"]') &&
          performance.now() < end
        )
          await new Promise((r) => requestAnimationFrame(r));
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        return performance.now() - t0;
      });
      console.log(`  tree first paint: ${ms.toFixed(0)} ms`);
      paints.push(ms);
      await page.getByRole("button", { name: "Close the tree" }).click();
      await settle();
    }

    // Navigation between leaves: tips of other branches, through the tree (Skip = leaf entry).
    await page.getByRole("button", { name: "Tree", exact: true }).click();
    const previews: number[] = [];
    const moves: number[] = [];
    // TREE_BENCH_PROFILE=1: CPU profile of the moves, top self-time functions printed.
    const cdp = process.env.TREE_BENCH_PROFILE ? await page.context().newCDPSession(page) : undefined;
    if (cdp) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
    }
    const profiles: {
      nodes: {
        id: number;
        callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
      }[];
      samples?: number[];
      timeDeltas?: number[];
    }[] = [];
    cdp?.on("Profiler.consoleProfileFinished", (e) => profiles.push(e.profile));
    // 24 different tips spread over the tree, each visited once: a person moving around a tree
    // mostly goes somewhere new (a revisit is faster: rows and text shapes seen before). A move is
    // a few frames, so single runs are noisy; TREE_BENCH_ROUNDS > 1 visits them again.
    const spread = Math.min(24, tips.length);
    const picks = Array.from({ length: spread }, (_, k) => {
      // k * 7 mod 24 visits every pick once, jumping across the tree between moves.
      const f = spread === 1 ? 0 : ((k * 7) % spread) / (spread - 1);
      return tips[Math.round(f * (tips.length - 1))]!;
    });
    const rounds = Number(process.env.TREE_BENCH_ROUNDS ?? 1);
    // TREE_BENCH_TRACE=1: a Chromium trace of the moves; the main thread's top events are printed.
    const tracing = process.env.TREE_BENCH_TRACE !== undefined;
    if (tracing)
      await browser.startTracing(page, {
        categories: [
          "devtools.timeline",
          "disabled-by-default-devtools.timeline",
          "v8",
          "blink",
          "blink.user_timing",
          "disabled-by-default-devtools.timeline.stack",
        ],
      });
    for (const tip of Array.from({ length: rounds }, () => picks).flat()) {
      const r = await page.evaluate(
        async ([tipId, profile]) => {
          const frame = () => new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
          // Bring the tip's row into view through the store-free path: the labels list is empty, so
          // scroll the virtual list until the row is rendered.
          const scroll = document.querySelector(".tree-scroll") as HTMLElement;
          const find = () =>
            document.querySelector(
              `[data-testid="tree-list"] [data-entry-id="${tipId}"]`,
            ) as HTMLElement | null;
          for (let y = 0; y <= scroll.scrollHeight && !find(); y += scroll.clientHeight * 0.8) {
            scroll.scrollTop = y;
            await frame();
          }
          const row = find();
          if (!row) return { preview: -1, move: -1 };
          let t0 = performance.now();
          row.click();
          const end = t0 + 30_000;
          while (!document.querySelector('dialog[data-dialog="navigate"]') && performance.now() < end)
            await new Promise((res) => requestAnimationFrame(res));
          await frame();
          const preview = performance.now() - t0;
          const skip = [...document.querySelectorAll('dialog[data-dialog="navigate"] button')].find((b) =>
            /Skip summary|Move/.test(b.textContent ?? ""),
          ) as HTMLButtonElement;
          t0 = performance.now();
          if (profile) console.profile("move");
          performance.mark("bench-move-start");
          skip.click();
          for (const stop = t0 + 30_000; performance.now() < stop; ) {
            const current = document.querySelector('[data-testid="tree-list"] [aria-current="location"]');
            // Done when the tree highlights the tip AND the timeline shows the new path's end.
            if (
              current?.getAttribute("data-entry-id") === tipId &&
              !document.querySelector('dialog[data-dialog="navigate"]') &&
              document.querySelector(`[data-testid="timeline"] [data-entry-id="${tipId}"]`)
            )
              break;
            await new Promise((res) => requestAnimationFrame(res));
          }
          await frame();
          performance.mark("bench-move-end");
          if (profile) console.profileEnd("move");
          return { preview, move: performance.now() - t0 };
        },
        [tip, cdp !== undefined] as const,
      );
      await settle();
      console.log(`  tip ${tip}: preview ${r.preview.toFixed(0)} ms, move ${r.move.toFixed(0)} ms`);
      previews.push(r.preview);
      moves.push(r.move);
    }
    if (tracing) printTraceSummary(await browser.stopTracing());
    if (cdp) {
      writeFileSync("/tmp/tree-bench/moves.cpuprofile.json", JSON.stringify(profiles));
      const self = new Map<string, number>();
      for (const profile of profiles) {
        const dt = new Map<number, number>();
        profile.samples?.forEach((id, i) => {
          dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0));
        });
        for (const n of profile.nodes) {
          const f = n.callFrame;
          const key = `${f.functionName || "(anon)"} ${f.url.split("/").pop()}:${f.lineNumber}:${f.columnNumber}`;
          self.set(key, (self.get(key) ?? 0) + (dt.get(n.id) ?? 0));
        }
      }
      for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
        console.log(`  ${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
    }
    const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");
    const report = (name: string, xs: number[], target: number) => {
      const m = median(xs);
      console.log(
        `${name.padEnd(44)} median ${m.toFixed(0).padStart(5)} ms  target <= ${target} ms  ${m <= target ? "OK" : "OVER"}  (runs: ${fmt(xs)})`,
      );
    };
    report("tree view first paint", paints, 300);
    report("navigation: preview shown after a click", previews, 300);
    report("navigation between leaves (skip → leaf shown)", moves, 50);
  } finally {
    await browser.close();
    await server.close();
  }
}
