// Every benchmark module imports and exposes a runnable default export; the pieces that run in the page work on small data.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as core from "../../src/core/session/index.ts";
import { formatChunks, initialJsGzip } from "./agent.bench.ts";
import { benchFiles, loadBench } from "./lib/bench-list.ts";
import { generateBigSession } from "./lib/big-session.ts";
import { type CoreRun, measureCore } from "./session-core.bench.ts";
import { generateTreeSession } from "./tree.bench.ts";

describe("benchmarks", () => {
  const files = benchFiles();

  it("finds the benchmarks that `npm run bench` runs", () => {
    expect(files).toEqual(
      expect.arrayContaining(["agent.bench.ts", "session-core.bench.ts", "storage.bench.ts"]),
    );
    expect(benchFiles(["core"])).toEqual(["session-core.bench.ts"]);
  });

  it.each(files)("%s imports and has a default export to run", async (file) => {
    const mod = await loadBench(file);
    expect(typeof mod.default).toBe("function");
  });

  it("session-core's page function runs on the real core, from its source text alone", async () => {
    const { text, entryCount } = generateBigSession(200 * 1024);
    // As in the page: the function's source evaluated where nothing of this module is in scope.
    (globalThis as { __name?: unknown }).__name ??= (f: unknown) => f;
    const fromSource = new Function(`return (${measureCore.toString()})`)() as typeof measureCore;
    for (const chunked of [false, true]) {
      const run: CoreRun = await fromSource(core, text, chunked);
      expect(run.entries).toBe(entryCount);
      expect(run.chunked).toBe(chunked ? 1 : 0);
      expect(run.messages).toBeGreaterThan(0);
      expect(run.sameLength).toBe(1);
    }
  });

  it("tree's generated session parses, and its tips are leaves", () => {
    const { text, tips } = generateTreeSession(400, 10);
    const parsed = core.parseSessionJsonl(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.entries).toHaveLength(400);
    expect(tips.length).toBeGreaterThan(1);
    expect(tips.length).toBeLessThanOrEqual(10);
    const ids = new Set(parsed.value.entries.map((e) => e.id));
    const parents = new Set(parsed.value.entries.map((e) => e.parentId));
    for (const tip of tips) {
      expect(ids.has(tip)).toBe(true);
      expect(parents.has(tip)).toBe(false);
    }
  });

  it("agent's initial JS counts the entry script and modulepreloads; the other scripts are lazy", () => {
    const dist = mkdtempSync(join(tmpdir(), "bench-dist-"));
    mkdirSync(join(dist, "assets"));
    const entry = "console.log('entry');".repeat(50);
    const vendor = "export const v = 1;";
    writeFileSync(join(dist, "assets/entry.js"), entry);
    writeFileSync(join(dist, "assets/vendor.js"), vendor);
    writeFileSync(join(dist, "assets/lazy.js"), "export const lazy = 2;".repeat(500));
    writeFileSync(join(dist, "assets/small.js"), "export const s = 3;");
    writeFileSync(join(dist, "assets/style.css"), "body{}");
    writeFileSync(
      join(dist, "index.html"),
      '<script type="module" crossorigin src="/assets/entry.js"></script><link rel="modulepreload" crossorigin href="/assets/vendor.js">',
    );
    const js = initialJsGzip(dist);
    expect(js.files).toEqual(["assets/entry.js", "assets/vendor.js"]);
    expect(js.raw).toBe(entry.length + vendor.length);
    expect(js.gzip).toBeGreaterThan(0);
    expect(js.gzip).toBeLessThan(js.raw);
    expect(js.lazy.map((c) => c.file)).toEqual(["assets/lazy.js", "assets/small.js"]);
    expect(formatChunks(js.lazy).split("\n")).toHaveLength(2);
  });
});
