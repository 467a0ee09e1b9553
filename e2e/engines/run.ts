/**
 * The cross-engine run: the main path in Firefox ESR (WebDriver BiDi) and WebKitGTK
 * (WebKitWebDriver) against the built app and the mock server; each engine prints
 * "engine: N of M steps passed" and its failures. Exits 1 when a step failed.
 *
 *   tsx e2e/engines/run.ts [--engines firefox,webkit] [--repeat N] [--parallel] [--retries N]
 *
 * A failed run is run once more from a new browser (--retries, 1 by default, as the Playwright
 * suite does in CI); the first try's failures are still printed, marked as such.
 *
 * CUTPOINT_ENGINES sets the engines too ("none" runs nothing); chromium can be named to check the
 * runner itself against the engine the Playwright suite uses.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSessionFileWithBytes } from "../../src/cli/command.ts";
import { serializeParsedSession } from "../../src/core/session/index.ts";
import { PI_FIXTURE } from "../pages/app-knowledge.ts";
import type { EngineDriver, EngineName, LaunchOptions } from "./driver.ts";
import { EnginePage } from "./engine-page.ts";
import { MAIN_PATH, type PathContext, type Step } from "./main-path.ts";
import { startPuppeteer } from "./puppeteer-driver.ts";
import { startServers } from "./servers.ts";
import { startWebKit } from "./webkit-driver.ts";

const ENGINES: EngineName[] = ["firefox", "webkit", "chromium"];

interface StepResult {
  name: string;
  outcome: "passed" | "failed" | "not run";
  ms: number;
  error?: string;
}

interface Options {
  engines: EngineName[];
  repeat: number;
  parallel: boolean;
  /** Only these steps (and the steps they need). */
  only: string[];
  /** How many times a failed run is tried again from a new browser. */
  retries: number;
}

function parseArgs(argv: string[]): Options {
  let list = process.env.CUTPOINT_ENGINES ?? "firefox,webkit";
  let repeat = 1;
  let parallel = false;
  let only: string[] = [];
  let retries = 1;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--engines") list = argv[++i] ?? "";
    else if (a === "--repeat") repeat = Number(argv[++i]);
    else if (a === "--parallel") parallel = true;
    else if (a === "--only") only = (argv[++i] ?? "").split(",");
    else if (a === "--retries") retries = Number(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  const names = list === "none" ? [] : list.split(",").filter((s) => s !== "");
  for (const n of names) if (!ENGINES.includes(n as EngineName)) throw new Error(`unknown engine ${n}`);
  if (!(repeat >= 1)) throw new Error("--repeat needs a number ≥ 1");
  for (const o of only) if (!MAIN_PATH.some((s) => s.name === o)) throw new Error(`unknown step ${o}`);
  if (!(retries >= 0)) throw new Error("--retries needs a number ≥ 0");
  return { engines: names as EngineName[], repeat, parallel, only, retries };
}

/** The steps to run: all, or the ones asked for and those they need. */
function stepsToRun(only: string[]): Step[] {
  if (only.length === 0) return MAIN_PATH;
  const wanted = new Set<string>();
  const add = (name: string) => {
    if (wanted.has(name)) return;
    wanted.add(name);
    for (const n of MAIN_PATH.find((s) => s.name === name)?.needs ?? []) add(n);
  };
  for (const o of only) add(o);
  return MAIN_PATH.filter((s) => wanted.has(s.name));
}

function launch(engine: EngineName, o: LaunchOptions): Promise<EngineDriver> {
  return engine === "webkit" ? startWebKit(o) : startPuppeteer(engine, o);
}

/** What the fixture's export is in Chromium (the Playwright suite holds it to the CLI's migrate). */
async function fixtureExport(): Promise<Buffer> {
  const parsed = await readSessionFileWithBytes(PI_FIXTURE, { quiet: true });
  if (!parsed.ok) throw new Error(parsed.error);
  const parts = serializeParsedSession(parsed.value, parsed.value.bytes);
  return Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : p)));
}

/** A picture of the page when a step fails, in CUTPOINT_ENGINES_OUT (when set). */
async function shot(driver: EngineDriver, step: string): Promise<void> {
  const out = process.env.CUTPOINT_ENGINES_OUT;
  if (!out) return;
  mkdirSync(out, { recursive: true });
  await driver
    .screenshot(join(out, `${driver.engine}-${step.replace(/\W+/g, "-")}.png`))
    .catch(() => undefined);
}

/** The start of what the page shows, to tell a lost click from an error message. */
async function pageText(driver: EngineDriver): Promise<string> {
  const text = await driver
    .evaluate<string>("document.body ? document.body.innerText : ''")
    .catch((e: unknown) => `(unreadable: ${String(e).slice(0, 80)})`);
  return JSON.stringify(text.replace(/\s+/g, " ").trim().slice(0, 300));
}

async function runEngine(
  engine: EngineName,
  steps: Step[],
  appUrl: string,
  expected: Buffer,
): Promise<{ line: string; details: string[]; failed: boolean }> {
  const t0 = Date.now();
  const dir = mkdtempSync(join(tmpdir(), `cutpoint-${engine}-`));
  const results: StepResult[] = [];
  let version = "";
  let startMs = 0;
  let closeMs = 0;
  let driver: EngineDriver | undefined;
  try {
    driver = await launch(engine, { dir, width: 1280, height: 800 });
    version = driver.version;
    startMs = Date.now() - t0;
    const c: PathContext = { page: new EnginePage(driver, appUrl), fixtureExport: expected };
    for (const step of steps) {
      const missing = step.needs.filter((n) => results.find((r) => r.name === n)?.outcome !== "passed");
      if (missing.length > 0) {
        results.push({ name: step.name, outcome: "not run", ms: 0, error: `needs ${missing.join(", ")}` });
        continue;
      }
      const s0 = Date.now();
      try {
        await step.run(c);
        results.push({ name: step.name, outcome: "passed", ms: Date.now() - s0 });
      } catch (e) {
        const message = (e instanceof Error ? e.message : String(e)).split("\n")[0]!.slice(0, 600);
        const error = `${message} — the page showed: ${await pageText(driver)}`;
        results.push({ name: step.name, outcome: "failed", ms: Date.now() - s0, error });
        await shot(driver, step.name);
      }
    }
  } catch (e) {
    const error = `could not start: ${e instanceof Error ? e.message : String(e)}`.slice(0, 600);
    for (const step of steps.slice(results.length))
      results.push({ name: step.name, outcome: "not run", ms: 0, error });
  } finally {
    const c0 = Date.now();
    await driver?.close().catch(() => undefined);
    closeMs = Date.now() - c0;
    rmSync(dir, { recursive: true, force: true });
  }
  const passed = results.filter((r) => r.outcome === "passed").length;
  const secs = ((Date.now() - t0) / 1000).toFixed(0);
  const line = `${engine}: ${passed} of ${steps.length} steps passed`;
  const details = [
    `  ${engine} ${version} in ${secs} s (start ${(startMs / 1000).toFixed(1)} s, close ${(closeMs / 1000).toFixed(1)} s): ${results.map((r) => `${r.name} ${r.outcome === "passed" ? `${(r.ms / 1000).toFixed(1)} s` : r.outcome}`).join(" · ")}`,
    ...results.filter((r) => r.outcome === "failed").map((r) => `  ✗ ${r.name}: ${r.error}`),
    ...results.filter((r) => r.outcome === "not run").map((r) => `  – ${r.name}: not run (${r.error})`),
  ];
  return { line, details, failed: passed < steps.length };
}

async function main(): Promise<number> {
  const { engines, repeat, parallel, only, retries } = parseArgs(process.argv.slice(2));
  const steps = stepsToRun(only);
  if (engines.length === 0) {
    console.log("engines: none asked for (CUTPOINT_ENGINES=none)");
    return 0;
  }
  const t0 = Date.now();
  const expected = await fixtureExport();
  const servers = await startServers();
  let failed = 0;
  try {
    for (let i = 0; i < repeat; i++) {
      const one = async (e: EngineName) => {
        for (let attempt = 0; ; attempt++) {
          const r = await runEngine(e, steps, servers.appUrl, expected);
          const last = !r.failed || attempt >= retries;
          const mark =
            r.failed && !last
              ? " (try again from a new browser)"
              : attempt > 0
                ? ` (try ${attempt + 1})`
                : "";
          console.log([r.line + mark, ...r.details].join("\n"));
          if (!last) continue;
          if (r.failed) failed++;
          return;
        }
      };
      if (parallel) await Promise.all(engines.map(one));
      else for (const e of engines) await one(e);
    }
  } finally {
    servers.stop();
  }
  const runs = engines.length * repeat;
  console.log(
    `engines: ${runs - failed} of ${runs} runs passed in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`engines: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
