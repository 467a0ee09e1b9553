/**
 * Helpers for benchmarks that drive the BUILT app in headless Chromium: build dist/ when
 * missing, serve it (plus in-memory extra files) on a free port, launch Debian's Chromium
 * with the same flags as the e2e tests, read the JS heap through CDP.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, resolve } from "node:path";
import { type Browser, chromium, type Page } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../../playwright.config.ts";

export const REPO_ROOT = resolve(import.meta.dirname, "../../..");
export const DIST = join(REPO_ROOT, "dist");

/** Newest modification time (ms) of the app's sources. */
function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const name of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, name.name);
      if (name.isDirectory()) walk(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  walk(join(REPO_ROOT, "src"));
  walk(join(REPO_ROOT, "public"));
  for (const f of ["index.html", "vite.config.ts", "package.json"])
    newest = Math.max(newest, statSync(join(REPO_ROOT, f)).mtimeMs);
  return newest;
}

/**
 * The built app to serve. CUTPOINT_DIST is used as given (built only when missing: a folder
 * built on purpose, e.g. to compare two versions); otherwise `fallback` is (re)built when it is
 * missing or older than the sources, so a benchmark never measures a stale build.
 */
export function builtApp(fallback = DIST): string {
  const given = process.env.CUTPOINT_DIST;
  const dist = given ?? fallback;
  const index = join(dist, "index.html");
  const stale = !existsSync(index) || (given === undefined && statSync(index).mtimeMs < newestSource());
  if (stale) {
    console.log(`building the app into ${dist}…`);
    execFileSync("npx", ["vite", "build", "--emptyOutDir", "--outDir", dist], {
      cwd: REPO_ROOT,
      stdio: "inherit",
    });
  }
  return dist;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
  ".jsonl": "application/x-ndjson",
  ".map": "application/json",
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `root` (SPA fallback to index.html) and `extra` paths from memory, on 127.0.0.1. */
export async function serveStatic(
  root: string,
  extra: Record<string, string | Buffer> = {},
): Promise<StaticServer> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const body = extra[path];
    if (body !== undefined) {
      res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" });
      res.end(body);
      return;
    }
    let file = normalize(join(root, path));
    if (!file.startsWith(root) || !existsSync(file) || statSync(file).isDirectory())
      file = join(root, "index.html");
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(readFileSync(file));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** JS heap in use after a full GC, in bytes (CDP). */
export async function usedHeapAfterGc(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  const { usedSize } = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
  await cdp.detach();
  return usedSize;
}

export const MB = 1024 * 1024;
export const fmtMs = (ms: number) => `${ms.toFixed(0)} ms`;
export const fmtMb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/**
 * Scrolls the element matching `scrollSelector` from top to bottom in 40 steps and counts the
 * rows (`rowSelector`, inside it) rendered at each step: a virtualized list keeps this bounded.
 */
export async function domRowsWhileScrolling(
  page: Page,
  scrollSelector: string,
  rowSelector: string,
): Promise<{ max: number; min: number; atEnd: number }> {
  return page.evaluate(
    async ([scroll, row]) => {
      const el = document.querySelector<HTMLElement>(scroll)!;
      const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      let max = 0;
      let min = Number.POSITIVE_INFINITY;
      for (let i = 0; i <= 40; i++) {
        el.scrollTop = (i / 40) * (el.scrollHeight - el.clientHeight);
        await frame();
        const n = el.querySelectorAll(row).length;
        max = Math.max(max, n);
        min = Math.min(min, n);
      }
      return { max, min, atEnd: el.querySelectorAll(row).length };
    },
    [scrollSelector, rowSelector] as const,
  );
}
