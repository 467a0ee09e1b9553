/**
 * The CLI, spawned and in process: inspect and migrate on the fixture, exit codes and usage, 200k-deep
 * nesting reported not crashed, damaged-file warnings, argument parsing, and quiet exits on EPIPE.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { parseSessionJsonl, serializeSession } from "../core/session/index.ts";
import { type CliCommand, parseArgs } from "./command.ts";
import type { InspectReport } from "./inspect-command.ts";
import { runCli } from "./main.ts";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");
const FIXTURE = resolve(import.meta.dirname, "../../../shared/fixtures/pi/before-compaction.jsonl");
const tmp = mkdtempSync(join(tmpdir(), "cutpoint-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run("npx", ["tsx", "src/cli/main.ts", ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function collect() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

describe("cli processes (spawned with tsx)", () => {
  it("inspect --json on the fixture reports its numbers", async () => {
    const { code, stdout } = await cli("inspect", FIXTURE, "--json");
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0]!) as InspectReport;
    expect(report.version).toBe(1);
    expect(report.entries).toBe(1002);
    expect(report.types).toEqual({ message: 990, thinking_level_change: 5, compaction: 2, model_change: 5 });
    expect(report.roles).toEqual({ user: 55, assistant: 484, toolResult: 448, bashExecution: 3 });
    expect(report.pathLength).toBe(1002);
    expect(report.leafLine).toBe(1003);
    expect(report.compactions).toEqual([
      { line: 360, firstKeptLine: 294, tokensBefore: 175004 },
      { line: 629, firstKeptLine: 552, tokensBefore: 185014 },
    ]);
    expect(report.problems).toEqual([]);
  }, 30_000);

  it("migrate writes exactly serializeSession's output", async () => {
    const out = join(tmp, "migrated.jsonl");
    const { code } = await cli("migrate", FIXTURE, "-o", out);
    expect(code).toBe(0);
    const parsed = parseSessionJsonl(readFileSync(FIXTURE, "utf8"));
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(readFileSync(out, "utf8")).toBe(serializeSession(parsed.value.header, parsed.value.entries));
  }, 30_000);

  it("exits non-zero with a message for an unreadable or invalid file, 2 for bad arguments", async () => {
    const missing = await cli("inspect", join(tmp, "nope.jsonl"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("cannot read (no such file)");
    const bogus = join(tmp, "bogus.jsonl");
    writeFileSync(bogus, '{"hello":1}\n');
    const invalid = await cli("migrate", bogus, "-o", join(tmp, "x.jsonl"));
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("not a session header");
    const usage = await cli("migrate", FIXTURE);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Usage:");
  }, 60_000);
});

describe("no input crashes the CLI", () => {
  it("200,000-deep nesting (a bare array line, an entry's content) is a reported bad line for every command", async () => {
    const nest = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    const lines = readFileSync(FIXTURE, "utf8").trimEnd().split("\n");
    lines.splice(2, 0, nest, `{"type":"message","message":{"role":"user","content":${nest},"timestamp":1}}`);
    const deep = join(tmp, "deep.jsonl");
    writeFileSync(deep, `${lines.join("\n")}\n`);
    const runs = await Promise.all([
      cli("inspect", deep, "--json"),
      cli("migrate", deep, "-o", join(tmp, "deep-out.jsonl")),
      cli("plan", deep),
      cli("context", deep),
    ]);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    for (const r of runs) expect(r.stderr).not.toContain("internal error");
    const report = JSON.parse(runs[0]!.stdout) as InspectReport;
    expect(report.problems.map((p) => [p.line, p.reason])).toEqual([
      [3, "nested more than 1,000 levels deep"],
      [4, "nested more than 1,000 levels deep"],
    ]);
    expect(report.entries).toBe(1002);
  }, 120_000);
});

describe("runCli (in process)", () => {
  it("prints usage for no command or an unknown one", async () => {
    const none = collect();
    expect(await runCli([], none.io)).toBe(2);
    expect(none.err.join("")).toMatch(/inspect <file>.*\n.*migrate <in> -o <out>/s);
    const unknown = collect();
    expect(await runCli(["frobnicate"], unknown.io)).toBe(2);
    expect(unknown.err.join("")).toContain('Unknown command "frobnicate"');
  });

  it("dispatches through the table, so a new command is one row", async () => {
    const seen: string[][] = [];
    const extra: CliCommand = {
      name: "echo",
      usage: "echo <x>",
      summary: "Echo.",
      run: async (args, io) => {
        seen.push(args);
        io.out(args.join(" "));
        return 0;
      },
    };
    const c = collect();
    expect(await runCli(["echo", "a", "b"], c.io, [extra])).toBe(0);
    expect(seen).toEqual([["a", "b"]]);
    expect(c.out).toEqual(["a b"]);
  });

  it("plan and context warn about a damaged file on stderr; inspect and migrate report it themselves", async () => {
    const lines = readFileSync(FIXTURE, "utf8").trimEnd().split("\n");
    const v3 = join(tmp, "v3.jsonl");
    expect(await runCli(["migrate", FIXTURE, "-o", v3], collect().io)).toBe(0);
    const entries = readFileSync(v3, "utf8").trimEnd().split("\n");
    entries[700] = JSON.stringify({ ...JSON.parse(entries[700]!), parentId: "nothere" });
    const damaged = join(tmp, "damaged.jsonl");
    writeFileSync(damaged, `${entries.join("\n")}\n`);
    expect(lines.length).toBe(entries.length);
    const warning = `${damaged}: warning: line 701: parentId "nothere" names no entry of the file`;
    for (const command of ["plan", "context"]) {
      const c = collect();
      expect(await runCli([command, damaged], c.io)).toBe(0);
      expect(c.err.join("")).toContain(warning);
    }
    const inspect = collect();
    expect(await runCli(["inspect", damaged], inspect.io)).toBe(0);
    expect(inspect.err).toEqual([]);
    expect(inspect.out.join("")).toContain(
      "303 entries from line 701 to the leaf (line 1003), cut off from the root",
    );
    const migrate = collect();
    expect(await runCli(["migrate", damaged, "-o", join(tmp, "m.jsonl")], migrate.io)).toBe(0);
    expect(migrate.err.join("")).toContain("1 problem(s) in the tree, kept as they are (see inspect)");
  });

  it("inspect: human table with lines of problems; bad options", async () => {
    const file = join(tmp, "bad.jsonl");
    writeFileSync(
      file,
      '{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}\nnot json\n' +
        '{"type":"compaction","id":"k","parentId":null,"summary":"S","firstKeptEntryId":"gone","tokensBefore":5}\n',
    );
    const c = collect();
    expect(await runCli(["inspect", file], c.io)).toBe(0);
    const text = c.out.join("");
    expect(text).toContain("line 2: not valid JSON");
    expect(text).toContain("line 3 keeps nothing before it, 5 tokens before");
    expect(text).toMatch(/path\s+1 entries from the root to the leaf \(line 3\)/);
    const bad = collect();
    expect(await runCli(["inspect", file, "--yaml"], bad.io)).toBe(2);
    expect(bad.err.join("")).toContain("unknown option --yaml");
    const several = collect();
    expect(await runCli(["inspect", file, join(tmp, "missing"), "--json"], several.io)).toBe(1);
    expect(several.out).toHaveLength(2);
    expect(JSON.parse(several.out[1]!)).toMatchObject({ error: expect.stringContaining("cannot read") });
  });
});

describe("parseArgs", () => {
  it("splits positionals, flags and valued options", () => {
    const r = parseArgs(["a", "-o", "out", "--json", "--out=x", "--", "-b"], ["-o", "--out"]);
    expect(r.ok && r.value.positionals).toEqual(["a", "-b"]);
    expect(r.ok && Object.fromEntries(r.value.options)).toEqual({
      "-o": "out",
      "--json": true,
      "--out": "x",
    });
    expect(parseArgs(["-o"], ["-o"])).toEqual({ ok: false, error: "option -o needs a value" });
  });
});

describe("a reader that stops early (EPIPE)", () => {
  /** Runs the CLI, closes its stdout (or stderr) after the first bytes, resolves to status and stderr. */
  function closeEarly(
    args: string[],
    stream: "stdout" | "stderr",
  ): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolvePromise) => {
      const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], { cwd: ROOT });
      let stderr = "";
      if (stream === "stdout") {
        child.stdout.once("data", () => child.stdout.destroy());
        child.stderr.on("data", (d: Buffer) => {
          stderr += d.toString();
        });
      } else {
        child.stderr.destroy();
        child.stdout.resume();
      }
      child.on("close", (code) => resolvePromise({ code, stderr }));
    });
  }

  it("every command exits quietly with status 0", async () => {
    // A long session without compactions, so that every command prints far more than a pipe holds.
    const entries = Array.from({ length: 3000 }, (_, i) =>
      JSON.stringify({
        type: "message",
        id: `m${i}`,
        parentId: i === 0 ? null : `m${i - 1}`,
        timestamp: "2026-01-01T00:00:00.000Z",
        message: { role: "user", content: `message ${i} ${"words ".repeat(20)}`, timestamp: i },
      }),
    );
    const big = join(tmp, "big.jsonl");
    writeFileSync(
      big,
      `${['{"type":"session","version":3,"id":"big","timestamp":"t","cwd":"/"}', ...entries].join("\n")}\n`,
    );
    const keeps = Array.from({ length: 400 }, (_, i) => 100 * (i + 1)).join(",");
    const runs = await Promise.all([
      closeEarly(["inspect", ...Array.from({ length: 300 }, () => big)], "stdout"),
      closeEarly(["context", big], "stdout"),
      closeEarly(["plan", big, "--keep-recent-tokens", keeps, "--json"], "stdout"),
      closeEarly(["migrate", big, "-o", join(tmp, "big-out.jsonl")], "stderr"),
      closeEarly(["help"], "stderr"),
    ]);
    for (const run of runs) expect(run).toEqual({ code: 0, stderr: "" });
  }, 120_000);
});
