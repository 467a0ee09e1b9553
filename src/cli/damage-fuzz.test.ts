/**
 * Fuzzing the import (its pure core: prepareImport) and the CLI with damaged session files: the
 * real pi fixture (migrated to v3, whole and its first lines) and generated sessions, broken by
 * truncation, bit flips, swapped, duplicated and deleted lines, cycles, missing parents, deep
 * nesting, a BOM, CRLF, NUL and invalid UTF-8 (import-fuzz-mutations.ts). Each case asserts:
 * - no crash (prepareImport never throws; every CLI command ends with status 0 or 1);
 * - every damage is reported with its line, and nothing else: the problems equal those of a
 *   naive second reading (import-fuzz-oracle.ts), and the path length too;
 * - the CLI's inspect reports exactly the app's problems and path;
 * - storing is all or nothing: a save that fails midway (a chunk that cannot be stored) leaves
 *   no session and no chunks, and a failed replace leaves the old session as it was;
 * - the export is valid UTF-8, equals the CLI's migrate byte for byte, and reads back without
 *   line problems and with the same tree problems.
 * The number of cases run is printed at the end. CI runs ~550 cases in under 20 s; for a longer
 * soak, CUTPOINT_FUZZ_SCALE=10 runs ten times as many.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { problemEffect } from "../core/session/damage.ts";
import { serializeSession } from "../core/session/export.ts";
import { PI_FIXTURE } from "../core/session/fixture-path.ts";
import { parseSessionBytes, parseSessionJsonl } from "../core/session/parse.ts";
import { createDb } from "../db/schema.ts";
import { exportSessionBlob, saveSession } from "../db/sessions-repo.ts";
import { prepareImport } from "../services/import/import-prepare.ts";
import {
  applyMutations,
  generatedSessionArb,
  type Mutation,
  mutationArb,
} from "../test-support/import-fuzz-mutations.ts";
import { expectedReading, problemKeys } from "../test-support/import-fuzz-oracle.ts";
import type { InspectReport } from "./inspect-command.ts";
import { runCli } from "./main.ts";

const tmp = mkdtempSync(join(tmpdir(), "cutpoint-fuzz-"));
const fatal = new TextDecoder("utf-8", { fatal: true });
const tally = { cases: 0, crashes: 0, unreported: 0, unchecked: 0, rejected: 0, stored: 0, rolledBack: 0 };
/** Problems reported per kind over all cases (to see that every kind was met). */
const kinds: Record<string, number> = {};

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  console.log(
    `import fuzz: ${tally.cases} cases, ${tally.crashes} crashes, ${tally.unreported} unreported damages; ` +
      `${tally.rejected} files rejected as not a session, ${tally.unchecked} migrated (no oracle), ` +
      `${tally.stored} stored and exported, ${tally.rolledBack} failed saves rolled back; problems by kind: ` +
      JSON.stringify(kinds),
  );
});

/** The fixture as v3 lines (what migrate writes), header first. */
const FIXTURE_V3 = (() => {
  const parsed = parseSessionJsonl(readFileSync(PI_FIXTURE, "utf8"));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return serializeSession(parsed.value.header, parsed.value.entries).trimEnd().split("\n");
})();

async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  let code: number;
  try {
    code = await runCli(args, { out: (t) => out.push(t), err: () => {} });
  } catch (error) {
    tally.crashes++;
    throw error;
  }
  if (code !== 0 && code !== 1) tally.crashes++;
  expect([0, 1]).toContain(code);
  return { code, out: out.join("") };
}

function multisetMissing(expected: string[], got: string[]): number {
  const left = [...got];
  let missing = 0;
  for (const key of expected) {
    const at = left.indexOf(key);
    if (at < 0) missing++;
    else left.splice(at, 1);
  }
  return missing;
}

const treeKeys = (problems: { kind: Parameters<typeof problemEffect>[0]; cutOff?: number }[]) =>
  problems
    .filter((p) => problemEffect(p.kind) === "tree")
    .map((p) => `${p.kind} ${p.cutOff ?? ""}`)
    .sort();

/** One damaged file through the app's import, the oracle, the CLI and the store. */
async function check(bytes: Uint8Array, options: { commands: boolean; poison: boolean }): Promise<void> {
  tally.cases++;
  let prepared: ReturnType<typeof prepareImport>;
  try {
    prepared = prepareImport("fuzz.jsonl", bytes);
  } catch (error) {
    tally.crashes++;
    throw error;
  }
  const expected = expectedReading(bytes);
  expect(prepared.ok).toBe(expected.ok);

  const file = join(tmp, `case-${tally.cases}.jsonl`);
  writeFileSync(file, bytes);
  const inspect = await cli("inspect", file, "--json");
  if (!prepared.ok) {
    tally.rejected++;
    expect(inspect.code).toBe(1);
    return;
  }
  const { problems, path, prepared: session } = prepared.value;
  for (const p of problems) kinds[p.kind] = (kinds[p.kind] ?? 0) + 1;
  if (expected.version >= 3) {
    const got = problemKeys(problems);
    tally.unreported += multisetMissing(expected.problems, got);
    expect(got).toEqual(expected.problems);
    expect(problems.reduce((n, p) => n + (p.cutOff ?? 0), 0)).toBe(expected.cutOff);
    expect(path.length).toBe(expected.pathLength);
    expect(session.meta.entryCount).toBe(expected.entries);
  } else tally.unchecked++;

  // The CLI reports what the app reports.
  expect(inspect.code).toBe(0);
  const report = JSON.parse(inspect.out) as InspectReport;
  expect(report.problems).toEqual(problems);
  expect([report.pathLength, report.pathFirstLine, report.leafLine, report.pathCutBy]).toEqual([
    path.length,
    path.firstLine,
    path.leafLine,
    path.cutBy,
  ]);
  const migrated = join(tmp, `case-${tally.cases}.v3.jsonl`);
  expect((await cli("migrate", file, "-o", migrated)).code).toBe(0);
  if (options.commands) {
    await cli("plan", file, "--json");
    await cli("context", file, "--json");
  }

  // Storing: all or nothing.
  const db = createDb("fuzz", { indexedDB: new IDBFactory(), IDBKeyRange });
  try {
    const saved = await saveSession(db, session, "new");
    expect(saved.ok).toBe(true);
    const exported = await exportSessionBlob(db, session.header.id);
    if (!exported.ok) throw new Error(exported.error.message);
    const out = new Uint8Array(await exported.value.blob.arrayBuffer());
    expect(() => fatal.decode(out)).not.toThrow();
    expect(Buffer.from(out).equals(readFileSync(migrated))).toBe(true);
    const again = parseSessionBytes(out);
    if (!again.ok) throw new Error(again.error.message);
    expect(again.value.problems.filter((p) => problemEffect(p.kind) !== "tree")).toEqual([]);
    expect(again.value.entryCount).toBe(session.meta.entryCount);
    expect(again.value.path.length).toBe(path.length);
    expect(treeKeys(again.value.problems)).toEqual(treeKeys(problems));
    tally.stored++;
    if (options.poison) {
      // A chunk IndexedDB cannot store (a function): the transaction fails after the session
      // row and the other chunks were written, and must take them back.
      const poisoned = {
        ...session,
        chunks: [...session.chunks, { data: (() => 0) as unknown as Blob, count: 1, bytes: 1 }],
      };
      const replaced = await saveSession(db, poisoned, "replace");
      expect(replaced.ok).toBe(false);
      const kept = await exportSessionBlob(db, session.header.id);
      expect(kept.ok && Buffer.from(await kept.value.blob.arrayBuffer()).equals(Buffer.from(out))).toBe(true);
      const fresh = await saveSession(db, { ...poisoned, header: { ...session.header, id: "other" } }, "new");
      expect(fresh.ok).toBe(false);
      expect(await db.sessions.get("other")).toBeUndefined();
      expect(
        await db.chunks.where("[sessionId+seq]").between(["other", 0], ["other", Infinity]).count(),
      ).toBe(0);
      tally.rolledBack += 2;
    }
  } finally {
    db.close();
  }
}

const SCALE = Number(process.env.CUTPOINT_FUZZ_SCALE ?? 1);

const mutations = fc.array(mutationArb, { minLength: 1, maxLength: 4 });
const caseArb = (base: fc.Arbitrary<string[]>) =>
  fc.record({ base, mutations, poison: fc.nat(4).map((n) => n === 0) });

async function run(
  base: fc.Arbitrary<string[]>,
  numRuns: number,
  commands: boolean,
  examples: [{ base: string[]; mutations: Mutation[]; poison: boolean }][] = [],
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(caseArb(base), async ({ base, mutations, poison }) => {
      await check(applyMutations(base, mutations), { commands, poison });
    }),
    { numRuns: Math.round(numRuns * SCALE), examples },
  );
}

describe("import fuzz", () => {
  it(
    "generated sessions",
    async () => {
      await run(generatedSessionArb, 400, true);
    },
    60_000 * SCALE,
  );

  it(
    "the first 120 lines of the real pi session",
    async () => {
      await run(fc.constant(FIXTURE_V3.slice(0, 120)), 120, true);
    },
    60_000 * SCALE,
  );

  it(
    "the whole real pi session (1,003 lines)",
    async () => {
      const whole = FIXTURE_V3;
      await run(fc.constant(whole), 20, false, [
        [{ base: whole, mutations: [{ kind: "cycle", a: 2, b: 0 }], poison: true }],
        [{ base: whole, mutations: [{ kind: "delete", a: 499 }], poison: false }],
        [{ base: whole, mutations: [{ kind: "deep", a: 3, depth: 200_000, inEntry: false }], poison: false }],
        [{ base: whole, mutations: [{ kind: "utf8", a: 9, bytes: [0xff], inString: true }], poison: false }],
      ]);
    },
    60_000 * SCALE,
  );

  it(
    "every damage kind at least once (the mix above is random: these are fixed)",
    async () => {
      const base = FIXTURE_V3.slice(0, 60);
      const fixed: Mutation[][] = [
        [{ kind: "cycle", a: 10, b: 3 }],
        [{ kind: "orphan", a: 20 }],
        [{ kind: "duplicate", a: 5 }],
        [{ kind: "delete", a: 7 }],
        [{ kind: "swap", a: 3, b: 40 }],
        [{ kind: "truncate", at: 0.5 }],
        [{ kind: "flip", at: 0.3, bit: 6 }],
        [{ kind: "deep", a: 4, depth: 1001, inEntry: true }],
        [{ kind: "bom" }, { kind: "crlf", a: 8 }],
        [{ kind: "nul", a: 12, at: 0.5 }],
        [{ kind: "utf8", a: 15, bytes: [0xed, 0xa0, 0x80], inString: true }],
        [{ kind: "leaf", b: 0, missing: true }],
      ];
      for (const m of fixed) await check(applyMutations(base, m), { commands: true, poison: true });
    },
    60_000 * SCALE,
  );
});
