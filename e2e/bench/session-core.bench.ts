/**
 * Session core on the 100 MB / 91k-entry session, in headless Chromium (the app's runtime):
 * parseSessionJsonl (whole text) and the byte parser (1 MB pieces, as the import worker),
 * tree + path, buildSessionContext, serializeSession.
 * The core is bundled with Vite's build API; the text is served by a local HTTP server.
 * `SESSION_BENCH_MB=50 npm run bench -- session-core` for another size.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium } from "@playwright/test";
import { build } from "vite";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../playwright.config.ts";
import { generateBigSession } from "./lib/big-session.ts";

const ENTRY = new URL("../../src/core/session/index.ts", import.meta.url).pathname;

async function bundleCore(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: "silent",
    build: { write: false, minify: false, lib: { entry: ENTRY, formats: ["iife"], name: "SessionCore" } },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const out of outputs) {
    if ("output" in out) for (const chunk of out.output) if (chunk.type === "chunk") return chunk.code;
  }
  throw new Error("no bundle output");
}

type SessionCore = typeof import("../../src/core/session/index.ts");

export interface CoreRun {
  chunked: number;
  baseline: number;
  parse: number;
  tree: number;
  context: number;
  serialize: number;
  entries: number;
  messages: number;
  sameLength: number;
}

/**
 * One measured run over `text` with the session core `core` (the bundle's global in the page,
 * the module itself in the unit test). Self-contained: it is sent to the page as source text,
 * so it may use nothing but its arguments and the platform. Typed against the core's exports,
 * so that a renamed or removed core function fails the type check (not the benchmark run).
 */
export async function measureCore(core: SessionCore, input: string, chunked: boolean): Promise<CoreRun> {
  let text = input;
  let t = performance.now();
  let baseline = 0;
  {
    // Lower bound: cut lines and JSON.parse each, nothing else.
    const values: unknown[] = [];
    let start = 0;
    let newline = text.indexOf("\n");
    while (newline >= 0) {
      values.push(JSON.parse(text.slice(start, newline)));
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    baseline = performance.now() - t;
    values.length = 0;
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  t = performance.now();
  let result: ReturnType<SessionCore["parseSessionJsonl"]>;
  if (chunked) {
    // The import worker's way: UTF-8 bytes pushed in 1 MB pieces (a line may span two).
    const bytes = new TextEncoder().encode(text);
    const parser = core.createSessionByteParser();
    for (let i = 0; i < bytes.length; i += 1 << 20) parser.push(bytes.subarray(i, i + (1 << 20)));
    result = parser.finish();
  } else {
    result = core.parseSessionJsonl(text);
  }
  const parse = performance.now() - t;
  if (!result.ok) throw new Error(result.error.message);
  const { header, entries } = result.value;
  t = performance.now();
  const index = core.buildTreeIndex(entries);
  const path = core.getPath(index.byId, core.resolveLeafId(entries));
  const tree = performance.now() - t;
  t = performance.now();
  const context = core.buildSessionContext(path);
  const ctx = performance.now() - t;
  const length = text.length;
  text = "";
  t = performance.now();
  const exported = core.serializeSession(header, entries);
  const serialize = performance.now() - t;
  return {
    chunked: chunked ? 1 : 0,
    baseline,
    parse,
    tree,
    context: ctx,
    serialize,
    entries: entries.length,
    messages: context.messages.length,
    sameLength: exported.length === length ? 1 : 0,
  };
}

export default async function bench(): Promise<void> {
  const megabytes = Number(process.env.SESSION_BENCH_MB ?? 100);
  const { text, entryCount, bytes } = generateBigSession(megabytes * 1024 * 1024);
  console.log(`session: ${(bytes / 1024 / 1024).toFixed(1)} MB, ${entryCount} entries`);
  const code = await bundleCore();
  // A plain local server: Playwright's route.fulfill cannot carry a 100 MB body.
  const body = Buffer.from(text, "utf8");
  const server = createServer((request, response) => {
    if (request.url === "/session.jsonl") {
      response.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(body);
    } else {
      response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>bench</title>");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext();
    // tsx (esbuild keepNames) wraps named functions in __name(); the page needs it too.
    await context.addInitScript("globalThis.__name = globalThis.__name || ((f) => f);");
    const runs: CoreRun[] = [];
    for (let run = 0; run < 3; run++) {
      // One page per run: a 100 MB text plus its entries is near the renderer's heap limit.
      const page = await context.newPage();
      page.on("crash", () => console.error("the page crashed"));
      await page.goto(`${origin}/`);
      await page.addScriptTag({ content: code });
      runs.push(
        (await page.evaluate(
          `fetch("/session.jsonl").then((r) => r.text()).then((text) => (${measureCore.toString()})(globalThis.SessionCore, text, ${run === 2}))`,
        )) as CoreRun,
      );
      await page.close();
    }
    for (const [i, r] of runs.entries()) {
      const ms = (n: number) => `${Math.round(n)} ms`;
      console.log(
        `run ${i + 1}: bare JSON.parse loop ${ms(r.baseline)}; ${r.chunked === 1 ? "chunked parse (1 MB pushes)" : "parse"} ${ms(r.parse)}, ` +
          `tree+path ${ms(r.tree)}, context ${ms(r.context)}, serialize ${ms(r.serialize)} ` +
          `(${r.entries} entries, ${r.messages} messages, same length as input: ${r.sameLength === 1})`,
      );
    }
  } finally {
    await browser.close();
    server.close();
  }
}
