/**
 * Agent UI while streaming, in the BUILT app in headless Chromium (`npm run bench -- agent`):
 * a reply streamed by the mock server at ~200 tokens/s (one ~4-character delta every 5 ms) into
 * a session of 5,000 entries. Measures the longest main-thread task (PerformanceObserver
 * "longtask") and the frame delay per delta (from the DOM update of a delta to the next frame),
 * and the initial JS of the app in gzip (what index.html loads before anything lazy), with the
 * size of each chunk loaded on demand.
 * Targets: longest task <= 50 ms, frame delay p95 <= 20 ms, initial JS <= 200 KB gzip.
 * AGENT_BENCH_PROFILE=1: a CPU profile of the run (top functions, and the busy stretches of 50 ms
 * or more: what the long tasks are; build with `--minify false` for readable names).
 * CUTPOINT_DIST=/tmp/x serves another build folder as given (built there when missing); by
 * default dist/ is rebuilt when older than the sources.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { getChatRequests, scriptReplies, setModels } from "../mock/client.ts";
import { startMockServer } from "../mock/server.ts";
import { generateBigSession } from "./lib/big-session.ts";
import { builtApp, fmtMs, launchChromium, serveStatic } from "./lib/browser.ts";
import { busyStretches, printProfile, startProfiler } from "./lib/profile.ts";

const TARGETS = { longTaskMs: 50, frameDelayP95Ms: 20, initialJsKb: 200 };
const ENTRIES = 5_000;
const DELTAS = 1_000;
const DELTA_MS = 5;

declare global {
  interface Window {
    __big?: Blob;
    __probe?: {
      longTasks: number[];
      spans: [number, number][];
      streamStart: number;
      streamEnd: number;
      delays: number[];
      deltas: number;
      stop: () => void;
    };
  }
}

function distFolder(): string {
  return builtApp();
}

export interface ChunkSize {
  file: string;
  gzip: number;
  raw: number;
}

function sizeOf(dist: string, file: string): ChunkSize {
  const bytes = readFileSync(join(dist, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

/**
 * gzip bytes of the scripts index.html loads up front (entry + modulepreload), and, in `lazy`,
 * every other script of the build (chunks loaded on demand and workers), largest first.
 */
export function initialJsGzip(dist: string): {
  files: string[];
  gzip: number;
  raw: number;
  lazy: ChunkSize[];
} {
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const files = [
    ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
  ].map((m) => m[1]!.replace(/^\//, ""));
  const initial = [...new Set(files)];
  let gzip = 0;
  let raw = 0;
  for (const f of initial) {
    const size = sizeOf(dist, f);
    raw += size.raw;
    gzip += size.gzip;
  }
  const lazy = readdirSync(join(dist, "assets"))
    .filter((f) => f.endsWith(".js"))
    .map((f) => `assets/${f}`)
    .filter((f) => !initial.includes(f))
    .map((f) => sizeOf(dist, f))
    .sort((a, b) => b.gzip - a.gzip);
  return { files: initial, gzip, raw, lazy };
}

/** One line per lazy chunk: gzip and raw KB. */
export function formatChunks(chunks: readonly ChunkSize[]): string {
  const kb = (n: number) => (n / 1024).toFixed(1);
  return chunks
    .map((c) => `  ${kb(c.gzip).padStart(8)} KB gzip ${kb(c.raw).padStart(8)} KB raw  ${c.file}`)
    .join("\n");
}

function sessionOf(entries: number): string {
  const { text } = generateBigSession(entries * 1500);
  const lines = text.split("\n").filter((l) => l !== "");
  if (lines.length < entries + 1) throw new Error(`generated only ${lines.length - 1} entries`);
  return `${lines.slice(0, entries + 1).join("\n")}\n`;
}

async function setUp(page: Page, baseUrl: string, key: string): Promise<void> {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dlg = page.locator('dialog[data-dialog="settings"]');
  await dlg.getByLabel("Provider", { exact: true }).selectOption("custom");
  const base = dlg.getByLabel("Base URL");
  await base.fill(baseUrl);
  await base.press("Enter");
  await dlg.getByLabel(/^API key/).fill(key);
  await dlg.getByRole("button", { name: "Save key" }).click();
  await dlg.getByTestId("models-status").filter({ hasText: "models listed" }).waitFor();
  await dlg.getByLabel("Default model").selectOption("mock-model");
  // The 5,000-entry session is past the compaction threshold: measure streaming, not compaction.
  const off = dlg.getByLabel(/^Off: never compact/);
  // (a controlled radio saved asynchronously: click until it reports checked)
  for (let i = 0; i < 20 && (await off.count()) > 0 && !(await off.isChecked()); i++) {
    await off.click();
    await page.waitForTimeout(150);
  }
  await dlg.getByRole("button", { name: "Done" }).click();
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

function verdict(value: number, target: number, unit: string): string {
  return `${value.toFixed(1).padStart(7)} ${unit}  (target ≤ ${target} ${unit})${value <= target ? "  ok" : "  OVER"}`;
}

export default async function bench(): Promise<void> {
  const dist = distFolder();
  const js = initialJsGzip(dist);
  console.log(
    `initial JS (gzip):         ${verdict(js.gzip / 1024, TARGETS.initialJsKb, "KB")}  [${js.files.length} files; ${(js.raw / 1024).toFixed(0)} KB raw]`,
  );
  console.log(`loaded on demand (${js.lazy.length} chunks and workers):\n${formatChunks(js.lazy)}`);
  const mock = await startMockServer({ port: 0 });
  const mockOrigin = `http://127.0.0.1:${mock.port}`;
  const session = sessionOf(ENTRIES);
  const app = await serveStatic(dist, { "/bench-session.jsonl": session });
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    // tsx (esbuild keepNames) wraps named functions in __name(); evaluated code needs it too.
    await page.addInitScript("window.__name = (f) => f;");
    await page.goto(app.url);
    await page.evaluate(async () => {
      window.__big = await (await fetch("/bench-session.jsonl")).blob();
    });
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File([window.__big!], "bench.jsonl"));
      document.body.dispatchEvent(
        new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: dt }),
      );
    });
    await page
      .getByTestId("path-count")
      .filter({ hasText: `${ENTRIES.toLocaleString("en-US")} entries` })
      .waitFor({ timeout: 60_000 });
    const key = `bench-${Math.random().toString(36).slice(2)}`;
    await setModels(key, { models: ["mock-model"] }, mockOrigin);
    await setUp(page, mock.baseUrl, key);
    const deltas = Array.from({ length: DELTAS }, (_, i) => (i % 12 === 11 ? "word\n" : "word"));
    await scriptReplies(key, [{ text: deltas, delayMs: DELTA_MS }], mockOrigin);

    await page.evaluate(() => {
      const longTasks: number[] = [];
      const delays: number[] = [];
      const spans: [number, number][] = [];
      const t0 = performance.now();
      const po = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          longTasks.push(e.duration);
          spans.push([Math.round(e.startTime - t0), Math.round(e.duration)]);
        }
      });
      po.observe({ type: "longtask", buffered: false });
      let pending: number | null = null;
      let count = 0;
      const target = document.querySelector('[data-testid="agent-composer"]')!;
      const mo = new MutationObserver(() => {
        const streaming = document.querySelector('[data-testid="live-text"]') !== null;
        if (streaming && window.__probe!.streamStart < 0)
          window.__probe!.streamStart = performance.now() - t0;
        if (streaming) window.__probe!.streamEnd = performance.now() - t0;
        if (!streaming) return;
        count++;
        if (pending !== null) return;
        pending = performance.now();
        requestAnimationFrame(() => {
          delays.push(performance.now() - pending!);
          pending = null;
        });
      });
      mo.observe(target, { subtree: true, childList: true, characterData: true });
      window.__probe = {
        streamStart: -1,
        streamEnd: -1,
        longTasks,
        spans,
        delays,
        get deltas() {
          return count;
        },
        stop: () => {
          po.disconnect();
          mo.disconnect();
        },
      };
    });
    const input = page.getByRole("textbox", { name: "Message" });
    await input.fill("stream a long answer");
    const profiler = process.env.AGENT_BENCH_PROFILE === "1" ? await startProfiler(page) : undefined;
    const t0 = Date.now();
    await input.press("Enter");
    const stop = page.getByTestId("agent-composer").getByRole("button", { name: "Stop" });
    await stop.waitFor();
    await stop.waitFor({ state: "hidden", timeout: 120_000 });
    const seconds = (Date.now() - t0) / 1000;
    if (profiler) {
      const profile = await profiler.stop();
      printProfile("the run: CPU profile", profile);
      console.log("  busy stretches of 50 ms or more (ms after the profile's start):");
      for (const line of busyStretches(profile)) console.log(`    ${line}`);
    }
    const probe = await page.evaluate(() => {
      window.__probe!.stop();
      return {
        longTasks: window.__probe!.longTasks,
        delays: window.__probe!.delays,
        deltas: window.__probe!.deltas,
        spans: window.__probe!.spans,
        streamStart: window.__probe!.streamStart,
        streamEnd: window.__probe!.streamEnd,
      };
    });
    const rows = await page.getByTestId("path-count").textContent();
    const during = probe.spans.filter(([a]) => a >= probe.streamStart && a <= probe.streamEnd);
    const outside = probe.spans.filter(([a]) => a < probe.streamStart || a > probe.streamEnd);
    const longest = Math.max(0, ...during.map(([, d]) => d));
    const longestOutside = Math.max(0, ...outside.map(([, d]) => d));
    console.log(`session: ${ENTRIES.toLocaleString("en-US")} entries; after the run: ${rows}`);
    console.log(
      `stream: ${DELTAS} deltas (~1 token each) in ${seconds.toFixed(1)} s ≈ ${(DELTAS / seconds).toFixed(0)} tokens/s; ${probe.deltas} DOM updates observed`,
    );
    console.log(
      `streaming from ${probe.streamStart.toFixed(0)} ms to ${probe.streamEnd.toFixed(0)} ms after the prompt`,
    );
    console.log(`longest task while streaming: ${verdict(longest, TARGETS.longTaskMs, "ms")}`);
    // The request's size: serializing it and handing it to fetch is most of the task before the
    // stream (the SDK's JSON.stringify, then the browser's copy of the string), ~linear in it.
    const [request] = await getChatRequests(key, mockOrigin);
    const bodyChars = request ? JSON.stringify(request.body).length : 0;
    console.log(
      `longest task outside streaming (prompt: appends, context build, request body; end: final append): ${longestOutside} ms; request body ${(bodyChars / 1e6).toFixed(1)} MB (≈ ${Math.round(bodyChars / 4 / 1000)}k tokens at chars/4: the whole 5,000-entry path, more than any model window; a 200k-token context is ~0.8 MB)`,
    );
    console.log(
      `long tasks (> 50 ms):      ${probe.longTasks.length}  [start ms after the prompt → duration: ${probe.spans.map(([a, d]) => `${a}→${d}`).join(", ")}]`,
    );
    console.log(
      `frame delay per delta:     median ${fmtMs(pct(probe.delays, 50))}, p95 ${fmtMs(pct(probe.delays, 95))}, max ${fmtMs(Math.max(0, ...probe.delays))} over ${probe.delays.length} frames`,
    );
    console.log(
      `frame delay p95:           ${verdict(pct(probe.delays, 95), TARGETS.frameDelayP95Ms, "ms")}`,
    );
  } finally {
    await browser.close();
    await app.close();
    await mock.close();
  }
}
