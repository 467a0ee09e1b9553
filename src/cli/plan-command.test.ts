/**
 * The CLI's `plan` and `context` commands on the real fixture: plans per leaf and keep value (pi's cut
 * at line 359), every line equal to planning from scratch, `--compare` against pi 1.6's rows, contexts.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createPlanner } from "../core/compaction/index.ts";
import { parseSessionJsonl } from "../core/session/index.ts";
import { type ContextMessageRow, type ContextReport, rowJson } from "./context-command.ts";
import { lineIndex, sessionPath } from "./leaf-paths.ts";
import { runCli } from "./main.ts";
import { PI_FIELDS, type PiPlanRow, type PlanReport, piRow, planReport } from "./plan-rows.ts";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");
const SHARED = resolve(import.meta.dirname, "../../../shared/fixtures");
const FIXTURE = resolve(SHARED, "pi/before-compaction.jsonl");
const PI16_PLANS = resolve(SHARED, "pi16/before-compaction.pi16-plans.jsonl");
const tmp = mkdtempSync(join(tmpdir(), "cutpoint-plan-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function spawnCli(...args: string[]) {
  try {
    const { stdout, stderr } = await run("npx", ["tsx", "src/cli/main.ts", ...args], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
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

const lines = <T = PlanReport>(stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as T);

describe("plan command, one leaf", () => {
  it("spawned: prints one JSON line per keep value with the headline plan at line 359", async () => {
    const { code, stdout } = await spawnCli(
      "plan",
      FIXTURE,
      "--leaf-line",
      "359",
      "--keep-recent-tokens",
      "2000,20000,40000",
      "--context-window",
      "180000",
      "--json",
    );
    expect(code).toBe(0);
    const reports = lines(stdout);
    expect(
      reports.map((r) => [r.keep, r.firstKeptLine, r.messagesToSummarize, r.turnPrefixMessages]),
    ).toEqual([
      [2000, 345, 288, 51],
      [20000, 261, 190, 65],
      [40000, 151, 86, 59],
    ]);
    for (const r of reports) {
      expect(r).toMatchObject({
        line: 359,
        compact: true,
        firstKeptType: "assistant",
        isSplitTurn: true,
        tokensBefore: 175004,
        contextTokens: 175004,
        previousSummary: false,
        file: FIXTURE,
        reserve: 16384,
        tokensBeforeSource: "reported",
      });
      expect(r.shouldCompact).toBe(175004 > 180000 - 16384);
      // The reference fields come first, in the reference file's order.
      expect(Object.keys(r).slice(0, PI_FIELDS.length)).toEqual([...PI_FIELDS]);
    }
    expect(reports[1]).toMatchObject({ turnStartLine: 196, windowStartLine: 2 });
    expect(reports[1]!.readFiles).toHaveLength(4);
    expect(reports[1]!.modifiedFiles).toHaveLength(4);
  }, 60_000);

  it("reports nothing to compact with a reason (pi's short row), and the full file's window after two compactions", async () => {
    const early = lines((await inProcess("plan", FIXTURE, "--leaf-line", "2", "--json")).stdout)[0]!;
    expect(early).toMatchObject({
      line: 2,
      compact: false,
      code: "nothing-to-summarize",
      contextTokens: 167,
    });
    expect(early.reason).toMatch(/Nothing to summarize/);
    expect(early.firstKeptLine).toBeUndefined();
    const pi = lines((await inProcess("plan", FIXTURE, "--leaf-line", "2", "--json", "--pi-fields")).stdout);
    expect(pi[0]).toEqual({ line: 2, keep: 20000, compact: false, contextTokens: 167 });
    const atCompaction = lines((await inProcess("plan", FIXTURE, "--leaf-line", "360", "--json")).stdout)[0]!;
    expect(atCompaction).toMatchObject({ compact: false, code: "last-is-compaction" });
    const full = lines((await inProcess("plan", FIXTURE, "--json")).stdout)[0]!;
    expect(full).toMatchObject({
      compact: true,
      line: 1003,
      windowStartLine: 552,
      previousSummary: true,
      tokensBefore: 180820,
    });
  });

  it("prints a readable report, supports the tokenizer estimator, and rejects bad arguments", async () => {
    const text = await inProcess("plan", FIXTURE, "--leaf-line", "359", "--context-window", "200000");
    expect(text.stdout).toContain("cut: keep from line 261 (assistant, ");
    expect(text.stdout).toContain("split turn: starts at line 196, prefix of 65 message(s)");
    expect(text.stdout).toContain("should compact (window 200,000): no");
    const tok = lines(
      (await inProcess("plan", FIXTURE, "--leaf-line", "359", "--estimator", "tokenizer", "--json")).stdout,
    )[0]!;
    expect(tok.estimator).toBe("tokenizer:cl100k_base"); // claude model: not an o200k family
    expect(tok.compact).toBe(true);
    expect((await inProcess("plan", FIXTURE, "--keep-recent-tokens", "abc")).code).toBe(2);
    expect((await inProcess("plan", FIXTURE, "--leaf-line", "3,x")).code).toBe(2);
    expect((await inProcess("plan", FIXTURE, "--leaf-line", "3", "--every-line")).code).toBe(2);
    expect((await inProcess("plan", FIXTURE, "--pi-fields")).code).toBe(2);
    expect((await inProcess("plan", FIXTURE, FIXTURE, "--compare", PI16_PLANS)).code).toBe(2);
    expect((await inProcess("plan", FIXTURE, "--estimator", "bpe")).code).toBe(2);
    expect((await inProcess("plan")).code).toBe(2);
    const missing = await inProcess("plan", "/nonexistent.jsonl", "--json");
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ file: "/nonexistent.jsonl" });
    const noLine = await inProcess("plan", FIXTURE, "--leaf-line", "10,99999");
    expect(noLine.code).toBe(1);
    expect(noLine.stderr).toContain("no entry on line 99999");
  });
});

describe("plan command, many leaves", () => {
  it("--every-line: one row per entry line and keep, equal to planning each leaf's path from scratch", async () => {
    const keeps = [2000, 20000, 40000];
    const { code, stdout } = await inProcess(
      "plan",
      FIXTURE,
      "--every-line",
      "--keep-recent-tokens",
      keeps.join(","),
      "--json",
    );
    expect(code).toBe(0);
    const rows = lines(stdout);
    const parsed = parseSessionJsonl(readFileSync(FIXTURE, "utf8"));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const session = parsed.value;
    expect(rows).toHaveLength(session.entries.length * keeps.length);
    const lineOf = lineIndex(session);
    let i = 0;
    for (const line of session.lines) {
      const sp = sessionPath(session, line);
      if (!sp.ok) throw new Error(sp.error);
      // From scratch: a new planner indexing this leaf's whole path.
      const fresh = createPlanner();
      fresh.setPath(sp.value.path);
      const context = fresh.contextTokens();
      for (const keep of keeps) {
        const result = fresh.plan({ keepRecentTokens: keep, reserveTokens: 16384 });
        if (result.ok) expect(context.tokens).toBe(result.plan.tokensBefore);
        const expected = planReport({
          file: FIXTURE,
          path: sp.value.path,
          lineOf,
          keep,
          reserve: 16384,
          contextWindow: null,
          estimator: "pi",
          result,
          context,
        });
        expect(rows[i++], `line ${line} keep ${keep}`).toEqual(expected);
      }
    }
  }, 60_000);

  it("--leaf-line list: rows in the order asked, the same as one call per leaf; a table without --json", async () => {
    const asked = [359, 10, 600, 30];
    const many = lines((await inProcess("plan", FIXTURE, "--leaf-line", asked.join(","), "--json")).stdout);
    const one = await Promise.all(
      asked.map(
        async (l) => lines((await inProcess("plan", FIXTURE, "--leaf-line", String(l), "--json")).stdout)[0],
      ),
    );
    expect(many).toEqual(one);
    expect(many.map((r) => r.line)).toEqual(asked);
    const table = (await inProcess("plan", FIXTURE, "--leaf-line", "10,359")).stdout.split("\n");
    expect(table[0]).toBe(FIXTURE);
    expect(table[1]).toMatch(/^\s+line\s+keep\s+plan first kept\s+split at\s+summarize/);
    expect(table[3]).toMatch(
      /^\s+359\s+20000\s+yes 261 assistant\s+196\s+190\s+65\s+175,004\s+175,004\s+4\/4$/,
    );
  });

  it("waits for a slow reader between leaves (io.drain) and still prints every row", async () => {
    const out: string[] = [];
    let drains = 0;
    const io = {
      out: (t: string) => out.push(t),
      err: () => {},
      drain: () => {
        drains++;
        return new Promise<void>((done) => setTimeout(done, 0));
      },
    };
    const code = await runCli(["plan", FIXTURE, "--every-line", "--json", "--pi-fields"], io);
    expect(code).toBe(0);
    const rows = lines<PiPlanRow>(out.join(""));
    expect(rows).toHaveLength(1002);
    // ~600 KB of rows in 64 KB writes: one wait after each write.
    expect(drains).toBeGreaterThanOrEqual(out.length - 1);
    expect(drains).toBeGreaterThan(5);
  });

  it("leaves on different branches each get their own path", async () => {
    const head = '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}';
    const m = (id: string, parentId: string | null, role: string, text: string) =>
      JSON.stringify({
        type: "message",
        id,
        parentId,
        timestamp: "2026-01-01T00:00:00.000Z",
        message:
          role === "user"
            ? { role, content: text, timestamp: 1 }
            : { role, content: [{ type: "text", text }], stopReason: "stop", timestamp: 2 },
      });
    const big = "x".repeat(8000);
    const file = join(tmp, "branches.jsonl");
    writeFileSync(
      file,
      [
        head,
        m("a", null, "user", big),
        m("b", "a", "assistant", big),
        m("c", "b", "user", big),
        m("d", "c", "assistant", big),
        m("e", "b", "user", `other ${big}`),
        m("f", "e", "assistant", big),
        "",
      ].join("\n"),
    );
    const rows = lines(
      (await inProcess("plan", file, "--every-line", "--keep-recent-tokens", "1000", "--json")).stdout,
    );
    expect(rows.map((r) => r.line)).toEqual([2, 3, 4, 5, 6, 7]);
    // Line 7 (f) is on the branch a-b-e-f: kept from its own last user, summarizing a and b.
    expect(rows[5]).toMatchObject({ compact: true, firstKeptLine: 7 });
    expect(rows[3]!.contextTokens).toBe(rows[5]!.contextTokens - 2); // "other " is 6 chars: 2 more estimated tokens
    for (const line of [5, 7]) {
      const one = lines(
        (await inProcess("plan", file, "--leaf-line", String(line), "--keep-recent-tokens", "1000", "--json"))
          .stdout,
      )[0];
      expect(rows.find((r) => r.line === line)).toEqual(one);
    }
  });
});

describe("plan --compare", () => {
  it("agrees with pi 1.6 on every row of its reference, and --pi-fields prints that file byte for byte", async () => {
    const { code, stdout } = await inProcess("plan", FIXTURE, "--compare", PI16_PLANS);
    expect(code).toBe(0);
    expect(stdout).toBe("3006 of 3006 rows agree\n");
    const rows = await inProcess(
      "plan",
      FIXTURE,
      "--every-line",
      "--keep-recent-tokens",
      "2000,20000,40000",
      "--json",
      "--pi-fields",
    );
    expect(rows.stdout === readFileSync(PI16_PLANS, "utf8")).toBe(true);
  });

  it("finds a changed row in an otherwise equal reference, and names rows only one side has", async () => {
    const ours = lines<PiPlanRow>(
      (
        await inProcess(
          "plan",
          FIXTURE,
          "--leaf-line",
          "100,359",
          "--keep-recent-tokens",
          "2000,20000",
          "--json",
          "--pi-fields",
        )
      ).stdout,
    );
    expect(ours.map(piRow)).toEqual(ours);
    const changed = ours.map((r) => (r.line === 359 && r.keep === 2000 ? { ...r, firstKeptLine: 344 } : r));
    changed.push({ line: 9999, keep: 2000, compact: false, contextTokens: 1 });
    const ref = join(tmp, "ref.jsonl");
    writeFileSync(ref, changed.map((r) => JSON.stringify(r)).join("\n"));
    const text = await inProcess("plan", FIXTURE, "--compare", ref, "--leaf-line", "100,359,360");
    expect(text.stdout).toBe(
      "3 of 4 rows agree (2 row(s) not in the reference, 1 reference row(s) not planned)\n" +
        "  line 359 keep 2000: firstKeptLine 345 vs 344\n",
    );
    const json = lines<Record<string, unknown>>(
      (await inProcess("plan", FIXTURE, "--compare", ref, "--json")).stdout,
    );
    expect(json[0]).toEqual({ line: 359, keep: 2000, fields: { firstKeptLine: [345, 344] } });
    expect(json[1]).toEqual({ compared: 4, agree: 3, unmatched: 0, missing: 1 });
    writeFileSync(ref, "{not json\n");
    expect((await inProcess("plan", FIXTURE, "--compare", ref)).code).toBe(1);
  });
});

describe("context command", () => {
  it("shows what pi 1.6 shows at the leaf of every conformance reference (messages, size, usage)", async () => {
    const dir = resolve(ROOT, "src/conformance/references");
    const names = readdirSync(dir).filter((f) => f.endsWith(".json"));
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      const ref = JSON.parse(readFileSync(resolve(dir, name), "utf8")) as {
        source: string;
        /** False for a v1 file: pi and Cutpoint give its entries different fresh ids. */
        idsStable: boolean;
        leaf: {
          leafLine: number;
          contextTokens: number;
          usageIndex: number | null;
          messages: { role: string; entryId: string; line: number; tokens: number }[];
        };
      };
      const file = existsSync(resolve(ROOT, ref.source))
        ? resolve(ROOT, ref.source)
        : resolve(SHARED, ref.source.slice(ref.source.indexOf("fixtures/") + "fixtures/".length));
      const { code, stdout } = await inProcess("context", file, "--json");
      expect(code, name).toBe(0);
      const ours = JSON.parse(stdout) as ContextReport;
      expect(
        {
          leafLine: ours.leafLine,
          contextTokens: ours.contextTokens,
          usageIndex: ours.usageIndex,
          messages: ours.messages.map((m) => [m.role, ref.idsStable ? m.entryId : "", m.line, m.tokens]),
        },
        name,
      ).toEqual({
        leafLine: ref.leaf.leafLine,
        contextTokens: ref.leaf.contextTokens,
        usageIndex: ref.leaf.usageIndex,
        messages: ref.leaf.messages.map((m) => [m.role, ref.idsStable ? m.entryId : "", m.line, m.tokens]),
      });
    }
  });

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

  it("streams the very text of JSON.stringify(report), row by row", async () => {
    const { stdout } = await inProcess("context", FIXTURE, "--json");
    const report = JSON.parse(stdout) as ContextReport;
    expect(stdout).toBe(`${JSON.stringify(report)}\n`);
    const odd = { index: 3, role: 'a"\u2028', entryId: "\\x", line: null, tokens: 0, excerpt: "é…\n" };
    expect(rowJson(odd)).toBe(JSON.stringify(odd));
    const damaged = { ...odd, role: undefined } as unknown as ContextMessageRow;
    expect(rowJson(damaged)).toBe(JSON.stringify(damaged));
  });

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
