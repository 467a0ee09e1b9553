import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { ContextReport } from "./context-command.ts";
import { runCli } from "./main.ts";
import type { PlanReport } from "./plan-command.ts";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");
const FIXTURES = resolve(import.meta.dirname, "../../../shared/fixtures/pi");
const FIXTURE = resolve(FIXTURES, "before-compaction.jsonl");
const PLANS = JSON.parse(readFileSync(resolve(FIXTURES, "before-compaction.plans.json"), "utf8")) as {
  rows: [number, number, number, boolean, number | null, number, number, number, number, number, number][];
};

async function spawnCli(...args: string[]) {
  try {
    const { stdout, stderr } = await run("npx", ["tsx", "src/cli/main.ts", ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function inProcess(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as PlanReport);

describe("plan command", () => {
  it("spawned: prints one JSON line per keep value with the headline plan at line 359", async () => {
    const { code, stdout } = await spawnCli(
      "plan",
      FIXTURE,
      "--leaf-line",
      "359",
      "--keep-recent-tokens",
      "2000,5000,10000,20000,40000",
      "--context-window",
      "180000",
      "--json",
    );
    expect(code).toBe(0);
    const reports = lines(stdout);
    expect(reports.map((r) => r.firstKeptLine)).toEqual([345, 323, 317, 261, 151]);
    for (const r of reports) {
      expect(r).toMatchObject({
        compact: true,
        isSplitTurn: true,
        tokensBefore: 175004,
        previousSummary: false,
        leafLine: 359,
      });
      expect(r.shouldCompact).toBe(175004 > 180000 - 16384);
    }
    expect(reports[3]).toMatchObject({
      turnStartLine: 196,
      messagesToSummarize: 190,
      turnPrefixMessages: 65,
    });
    expect(reports[3]!.readFiles).toHaveLength(4);
    expect(reports[3]!.modifiedFiles).toHaveLength(4);
  }, 60_000);

  it("agrees with pi's plans on every 30th leaf line (all rows: src/core/compaction/plan.fixture.test.ts)", async () => {
    const byLine = new Map<number, typeof PLANS.rows>();
    for (const row of PLANS.rows) byLine.set(row[0], [...(byLine.get(row[0]) ?? []), row]);
    const sample = [...byLine].filter(([line]) => line % 30 === 0 || line === 359);
    expect(sample.length).toBeGreaterThan(10);
    for (const [leafLine, rows] of sample) {
      const keeps = rows.map((r) => r[1]).join(",");
      const { code, stdout } = await inProcess(
        "plan",
        FIXTURE,
        "--leaf-line",
        String(leafLine),
        "--keep-recent-tokens",
        keeps,
        "--json",
      );
      expect(code).toBe(0);
      const got = lines(stdout).map((r) => [
        r.leafLine,
        r.keepRecentTokens,
        r.firstKeptLine,
        r.isSplitTurn,
        r.turnStartLine,
        r.tokensBefore,
        r.messagesToSummarize,
        r.turnPrefixMessages,
        r.readFiles.length,
        r.modifiedFiles.length,
        r.contextTokens,
      ]);
      expect(got).toEqual(rows);
    }
  });

  it("reports nothing to compact with a reason, and the full file's window after two compactions", async () => {
    const early = lines((await inProcess("plan", FIXTURE, "--leaf-line", "2", "--json")).stdout)[0]!;
    expect(early).toMatchObject({ compact: false, code: "nothing-to-summarize", firstKeptLine: 2 });
    expect(early.reason).toMatch(/Nothing to summarize/);
    const atCompaction = lines((await inProcess("plan", FIXTURE, "--leaf-line", "360", "--json")).stdout)[0]!;
    expect(atCompaction).toMatchObject({ compact: false, code: "last-is-compaction", firstKeptLine: null });
    const full = lines((await inProcess("plan", FIXTURE, "--json")).stdout)[0]!;
    expect(full).toMatchObject({
      compact: true,
      leafLine: 1003,
      windowStartLine: 552,
      previousSummary: true,
      tokensBefore: 180820,
    });
  });

  it("prints a readable report, supports the tokenizer estimator, and rejects bad arguments", async () => {
    const text = await inProcess("plan", FIXTURE, "--leaf-line", "359", "--context-window", "200000");
    expect(text.stdout).toContain("cut: keep from line 261");
    expect(text.stdout).toContain("split turn: starts at line 196, prefix of 65 message(s)");
    expect(text.stdout).toContain("should compact (window 200,000): no");
    const tok = lines(
      (await inProcess("plan", FIXTURE, "--leaf-line", "359", "--estimator", "tokenizer", "--json")).stdout,
    )[0]!;
    expect(tok.estimator).toBe("tokenizer:cl100k_base"); // claude model: not an o200k family
    expect(tok.compact).toBe(true);
    expect((await inProcess("plan", FIXTURE, "--keep-recent-tokens", "abc")).code).toBe(2);
    expect((await inProcess("plan", FIXTURE, "--estimator", "bpe")).code).toBe(2);
    expect((await inProcess("plan")).code).toBe(2);
    const missing = await inProcess("plan", "/nonexistent.jsonl", "--json");
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ file: "/nonexistent.jsonl" });
    expect((await inProcess("plan", FIXTURE, "--leaf-line", "99999")).code).toBe(1);
  });
});

describe("context command", () => {
  it("spawned: lists the messages the model sees with roles and estimates", async () => {
    const { code, stdout } = await spawnCli("context", FIXTURE, "--json");
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as ContextReport;
    expect(report.messages[0]).toMatchObject({ role: "compactionSummary", line: 629 });
    expect(report.messages[1]!.line).toBe(552);
    expect(report.messages).toHaveLength(446);
    expect(report).toMatchObject({
      contextTokens: 180820,
      source: "reported",
      leafLine: 1003,
      model: "anthropic/claude-opus-4-5",
    });
    const last = report.messages.at(-1)!;
    expect(last).toMatchObject({ role: "bashExecution", line: 1002 });
    expect(last.tokens).toBeGreaterThan(0);
  }, 60_000);

  it("at a leaf line, and as text", async () => {
    const { code, stdout } = await inProcess("context", FIXTURE, "--leaf-line", "359", "--json");
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as ContextReport;
    expect(report.messages).toHaveLength(354); // 358 entries, 4 of them settings
    expect(report.contextTokens).toBe(175004);
    const text = await inProcess("context", FIXTURE, "--leaf-line", "3");
    expect(text.stdout).toMatch(/line 2\s+user/);
    expect(text.stdout).toContain("2 messages, context");
    expect((await inProcess("context")).code).toBe(2);
  });
});
