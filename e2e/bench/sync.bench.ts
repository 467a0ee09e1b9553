/**
 * First sync of a big session (`npm run bench -- sync`; SYNC_BENCH_MB sets its size, 100 by
 * default), in the BUILT app in headless Chromium, to each local server (s3rver, webdav-server)
 * and back on a second device: device A imports the session and saves the target (the time from
 * Save and sync to its first round's end), device B saves the same target and fetches the session
 * from its session list (the time to it stored); the long tasks on each (target: <= 100 ms), and
 * the bytes stored on the server beside the file's size. SYNC_BENCH_PROFILE=1 adds a CPU profile
 * of each measured step (build with `--minify false` for names); SYNC_BENCH_TRACE=1 a Chromium
 * trace of it, with what took the time of each long task (script by function, garbage collection).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "@playwright/test";
import { DAV_USER, type Running, S3_KEY, startS3, startWebDav, storedObjects } from "../sync/servers.ts";
import {
  fetchFromTarget,
  fillSyncForm,
  openSettings,
  type SyncForm,
  saveSyncForm,
  setUpSync,
} from "../sync/steps.ts";
import { generateBigSession } from "./lib/big-session.ts";
import { builtApp, fmtMb, fmtMs, launchChromium, serveStatic } from "./lib/browser.ts";
import {
  formatLongTasks,
  longTaskBreakdown,
  printProfile,
  startProfiler,
  TRACE_CATEGORIES,
} from "./lib/profile.ts";

const BIG_ID = "00000000-0000-4000-8000-000000000bench";
const PASSPHRASE = "bench passphrase";
const LONG_TASK_TARGET = 100;

declare global {
  interface Window {
    __tasks?: { start: number; duration: number }[];
  }
}

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

async function openDevice(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript("globalThis.__name = globalThis.__name || ((f) => f);");
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__tasks = [];
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__tasks?.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: "longtask", buffered: true });
    } catch {
      // no long task API
    }
  });
  await page.goto(`${url}/`);
  await page.waitForSelector(".welcome");
  return page;
}

/** Forgets the long tasks so far; returns the page's clock (the start of what is measured next). */
const resetTasks = (page: Page) =>
  page.evaluate(() => {
    window.__tasks = [];
    return performance.now();
  });
const longTasks = (page: Page) => page.evaluate(() => window.__tasks ?? []);
const PROFILING = process.env.SYNC_BENCH_PROFILE === "1";
const TRACING = process.env.SYNC_BENCH_TRACE === "1";

/** Runs `work` on `page`, with a CPU profile when SYNC_BENCH_PROFILE=1; returns its ms and long tasks. */
async function measured(page: Page, title: string, work: () => Promise<unknown>) {
  const t0 = await resetTasks(page);
  const profiler = PROFILING ? await startProfiler(page) : undefined;
  const browser = page.context().browser();
  if (TRACING) await browser?.startTracing(page, { categories: TRACE_CATEGORIES });
  const start = Date.now();
  await work();
  const ms = Date.now() - start;
  const tasks = await longTasks(page);
  if (profiler) printProfile(title, await profiler.stop(), 12);
  const trace = TRACING ? await browser?.stopTracing() : undefined;
  if (trace) {
    console.log(`  ${title}: long tasks in the trace (ms after the first; parts in ms):`);
    for (const line of longTaskBreakdown(trace)) console.log(`    ${line}`);
  }
  const longest = tasks.reduce((m, t) => Math.max(m, t.duration), 0);
  console.log(`  ${title}: ${formatLongTasks(tasks, t0)}`);
  return { ms, longest };
}

async function oneTarget(
  browser: Browser,
  app: string,
  file: string,
  fileBytes: number,
  entries: number,
  kind: "s3" | "webdav",
) {
  const port = await freePort();
  const server: Running =
    kind === "s3" ? await startS3(port, { cors: true, prefix: "bench/" }) : await startWebDav(port);
  const form: SyncForm =
    kind === "s3"
      ? {
          kind,
          url: server.url,
          id: S3_KEY.accessKeyId,
          secret: S3_KEY.secretAccessKey,
          bucket: "cutpoint",
          prefix: "bench/",
          passphrase: PASSPHRASE,
        }
      : { kind, url: server.url, id: DAV_USER.user, secret: DAV_USER.password, passphrase: PASSPHRASE };
  try {
    const a = await openDevice(browser, app);
    await a.getByTestId("import-input").first().setInputFiles(file);
    await a
      .getByTestId("toast")
      .filter({ hasText: /Imported big\.jsonl/ })
      .waitFor({ timeout: 600_000 });
    // Opening Settings and filling the form are measured apart from the sync itself.
    const settings = await measured(a, `${kind} Settings opened and filled`, async () => {
      await openSettings(a);
      await fillSyncForm(a, form);
    });
    const up = await measured(a, `${kind} up`, () => saveSyncForm(a, { timeout: 1_800_000 }));

    const b = await openDevice(browser, app);
    await setUpSync(b, form, { timeout: 600_000 });
    const down = await measured(b, `${kind} back`, () =>
      fetchFromTarget(b, BIG_ID, { via: "list", timeout: 1_800_000 }),
    );
    const stored = await b.evaluate(
      (id) =>
        new Promise<number>((ok) => {
          const req = indexedDB.open("cutpoint");
          req.onsuccess = () => {
            const get = req.result.transaction("sessions").objectStore("sessions").get(id);
            get.onsuccess = () => ok((get.result as { entryCount?: number } | undefined)?.entryCount ?? 0);
          };
        }),
      BIG_ID,
    );
    const onServer = storedObjects(server).reduce((n, o) => n + o.bytes.length, 0);
    const flag = (ms: number) => (ms <= LONG_TASK_TARGET ? "ok" : `over ${LONG_TASK_TARGET} ms`);
    console.log(
      `${kind}: opening Settings → Sync and filling it (A): longest main-thread task ${fmtMs(settings.longest)}`,
    );
    console.log(
      `${kind}: first sync up (A, Save and sync to synced): ${fmtMs(up.ms)}; longest main-thread task ${fmtMs(up.longest)} (${flag(up.longest)})`,
    );
    console.log(
      `${kind}: back on B (Fetch to stored): ${fmtMs(down.ms)}; longest main-thread task ${fmtMs(down.longest)} (${flag(down.longest)}); ${stored.toLocaleString("en-US")} of ${entries.toLocaleString("en-US")} entries`,
    );
    console.log(
      `${kind}: on the server ${fmtMb(onServer)} (encrypted) for a ${fmtMb(fileBytes)} file (${((onServer / fileBytes) * 100).toFixed(0)} %)`,
    );
    await a.context().close();
    await b.context().close();
  } finally {
    await server.stop();
  }
}

export default async function syncBench(): Promise<void> {
  const mb = Number(process.env.SYNC_BENCH_MB ?? 100);
  const big = generateBigSession(mb * 1024 * 1024);
  const file = join(mkdtempSync(join(tmpdir(), "cutpoint-sync-bench-")), "big.jsonl");
  writeFileSync(file, big.text);
  console.log(`session: ${fmtMb(big.bytes)}, ${big.entryCount.toLocaleString("en-US")} entries`);
  const app = await serveStatic(builtApp());
  const browser = await launchChromium();
  try {
    for (const kind of ["s3", "webdav"] as const)
      await oneTarget(browser, app.url, file, big.bytes, big.entryCount, kind);
  } finally {
    await browser.close();
    await app.close();
  }
}
