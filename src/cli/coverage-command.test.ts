/**
 * The CLI's `coverage` command on the real fixture: its report equals the core's items and figure;
 * bad arguments give usage (exit 2), unreadable files exit 1.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkProbes,
  coverageFigure,
  coverageOf,
  coverageRanges,
  deriveProbes,
  generateOfflineCompaction,
  planCompaction,
  planCoverageItems,
  probesFigure,
} from "../core/compaction/index.ts";
import { readSessionFile } from "./command.ts";
import type { CoverageCliReport } from "./coverage-command.ts";
import { sessionPath } from "./leaf-paths.ts";
import { runCli } from "./main.ts";

const FIXTURE = resolve(import.meta.dirname, "../../../shared/fixtures/pi/before-compaction.jsonl");

async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

describe("coverage command", () => {
  it("prints the items and the figure of the offline summary", async () => {
    const r = await cli("coverage", FIXTURE, "--leaf-line", "359", "--offline");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/coverage: \d+ of \d+ key items.* \(\d+ of \d+ items in all\)/);
    expect(r.stdout).toMatch(/^ {2}✓ file +\/Users\/badlogic\/workspaces\/pi-mono\/\S+/m);
    expect(r.stdout).toContain("by kind: file");
    // The probes: a figure, then each question with its known answer.
    expect(r.stdout).toMatch(/^ {2}5 of 5 probes answered:$/m);
    expect(r.stdout).toMatch(
      /^ {2}✓ Which files were modified\? 4 files: `docs\/refactor\.md`.* \(4 of 4 mentioned\)$/m,
    );
  });

  it("gives the same list as the core function the app calls (--json, --summary FILE)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cov-"));
    const summaryFile = join(dir, "s.md");
    writeFileSync(summaryFile, "## Goal\n- edit interactive-mode.ts\nRan `npm run check`.\n");
    const r = await cli(
      "coverage",
      FIXTURE,
      "--leaf-line",
      "900",
      "--keep-recent-tokens",
      "2000",
      "--summary",
      summaryFile,
      "--json",
    );
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as CoverageCliReport;
    const session = await readSessionFile(FIXTURE);
    if (!session.ok) throw new Error(session.error);
    const sp = sessionPath(session.value, 900);
    if (!sp.ok) throw new Error(sp.error);
    const plan = planCompaction(sp.value.path, { keepRecentTokens: 2000, reserveTokens: 16384 });
    if (!plan.ok) throw new Error(plan.reason);
    const core = coverageOf("## Goal\n- edit interactive-mode.ts\nRan `npm run check`.\n", plan.plan);
    expect(report.items).toEqual(core.items);
    expect(report.figure).toBe(coverageFigure(core));
    // The probes the review shows for the same draft: the same core calls, the same figure.
    const probes = checkProbes(
      "## Goal\n- edit interactive-mode.ts\nRan `npm run check`.\n",
      deriveProbes(coverageRanges(plan.plan), planCoverageItems(plan.plan)),
    );
    expect(report.probes).toEqual(probes);
    expect(report.probesFigure).toBe(probesFigure(probes));
    expect(probes.total).toBeGreaterThan(probes.answered);
    expect(report.covered).toBeGreaterThan(0);
    expect(report.covered).toBeLessThan(report.total);
    const offline = await cli(
      "coverage",
      FIXTURE,
      "--leaf-line",
      "900",
      "--keep-recent-tokens",
      "2000",
      "--offline",
      "--json",
    );
    const g = generateOfflineCompaction(plan.plan);
    if (!g.ok) throw new Error(g.error);
    expect((JSON.parse(offline.stdout) as CoverageCliReport).covered).toBe(
      coverageOf(g.fields.summary, plan.plan).covered,
    );
  });

  it("rejects bad arguments with usage, and unreadable files with exit 1", async () => {
    expect((await cli("coverage", FIXTURE)).code).toBe(2);
    expect((await cli("coverage", FIXTURE, "--offline", "--summary", "x")).code).toBe(2);
    expect((await cli("coverage", "--offline")).code).toBe(2);
    expect((await cli("coverage", FIXTURE, "--offline", "--leaf-line", "x")).code).toBe(2);
    const missing = await cli("coverage", FIXTURE, "--summary", "/nonexistent/s.md");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("/nonexistent/s.md: cannot read (ENOENT)");
    expect((await cli("coverage", "/nonexistent.jsonl", "--offline")).code).toBe(1);
  });
});
