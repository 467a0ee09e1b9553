/**
 * What pi 1.6 restores when it continues a session, before and after each kind of write Cutpoint
 * makes (pin, second pin, pin edit, unpin, a compaction made with the person's summary instructions,
 * a prompt edit), on sessions with and without a system message. pi's own AgentSession gives the
 * tools it makes active and its context the prompt it replays (oracle/restore-view.mjs); every write
 * must leave both as they were except for what the person asked. Prints the count of rows.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { keepPiLoadout, PI_DEFAULT_TOOL_NAMES } from "../core/agent/pi-loadout.ts";
import { type PinChange, pinPatch, pinSectionValue } from "../core/agent/pins.ts";
import { loadoutChange, promptEdit, type SystemPatch, systemMessageEntry } from "../core/agent/settings.ts";
import { generateOfflineCompaction } from "../core/compaction/offline-summary.ts";
import { planCompaction } from "../core/compaction/plan.ts";
import { buildCompactionEntry } from "../core/compaction/summarize.ts";
import { buildSessionContext } from "../core/session/context.ts";
import { serializeSession } from "../core/session/export.ts";
import { parseSessionJsonl } from "../core/session/parse.ts";
import { contentText } from "../core/session/system-prompt.ts";
import { assistant, msg, user } from "../core/session/test-builders.ts";
import { currentPath } from "../core/session/tree.ts";
import type { SessionEntry, SessionHeader } from "../core/session/types.ts";
import { pi16Paths, runWithPi16 } from "./pi16.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const SHARED = resolve(ROOT, "../shared/fixtures/pi16");
const TS = Date.parse("2026-12-01T00:00:00.000Z");
const piInstalled = (() => {
  try {
    readFileSync(join(pi16Paths().packageDir, "package.json"));
    return true;
  } catch {
    return false;
  }
})();

interface Restored {
  tools: string[];
  content: string | null;
  sections: Record<string, string>;
}

interface Base {
  name: string;
  header: SessionHeader;
  path: SessionEntry[];
}

function load(name: string, file: string): Base {
  const parsed = parseSessionJsonl(readFileSync(file, "utf8"));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return { name, header: parsed.value.header, path: currentPath(parsed.value.entries) };
}

/** A pi session Cutpoint's agent ran: its prompt and tools declared by its first run. */
function cutpointAgentSession(): Base {
  const base = load("cutpoint-agent", resolve(ROOT, "public/examples/example-session.jsonl"));
  const tools = ["read", "write", "edit", "ls", "find", "grep"].map((name) => ({
    name,
    description: `Cutpoint's ${name} tool.`,
    parameters: { type: "object", properties: { path: { type: "string" } } },
  }));
  const patch = loadoutChange(undefined, { prompt: "You are Cutpoint's agent.", tools })!;
  return { ...base, path: append(base.path, patch, "agent-run") };
}

function append(path: SessionEntry[], patch: SystemPatch, id: string): SessionEntry[] {
  const parent = path[path.length - 1]?.id ?? null;
  return [...path, systemMessageEntry(parent, patch, id, TS)];
}

/** A pin change as the Pins dialog writes it (services/prompt/pins-service.ts). */
function pin(path: SessionEntry[], change: PinChange, id: string): SessionEntry[] {
  const system = buildSessionContext(path).systemMessage;
  const p = pinPatch(system, change);
  if (!p.ok) throw new Error(p.error);
  return append(path, keepPiLoadout(system, { content: "", sections: p.sections }), id);
}

/**
 * Two turns, then a compaction confirmed in the review, its summary written offline (as Generate
 * would with the person's instructions).
 */
function compact(path: SessionEntry[], id: string): SessionEntry[] {
  for (let i = 0; i < 2; i++) {
    const words = `turn ${i} ${"words to summarize ".repeat(60)}`;
    path = [...path, msg(`${id}-u${i}`, path[path.length - 1]!.id, user(words))];
    path = [...path, msg(`${id}-a${i}`, `${id}-u${i}`, assistant(words))];
  }
  const planned = planCompaction(path, { keepRecentTokens: 100, reserveTokens: 16384 });
  if (!planned.ok) throw new Error(planned.reason);
  const generated = generateOfflineCompaction(planned.plan);
  if (!generated.ok) throw new Error(generated.error);
  const summary = `Summarized as the person's instructions asked.\n\n${generated.fields.summary}`;
  const entry = buildCompactionEntry({
    ...generated.fields,
    summary,
    id,
    parentId: path[path.length - 1]!.id,
    timestamp: new Date(TS).toISOString(),
  });
  return [...path, entry];
}

/** The System prompt dialog's save (services/prompt/system-prompt-service.ts). */
function editPrompt(path: SessionEntry[], text: string, id: string): SessionEntry[] {
  const system = buildSessionContext(path).systemMessage;
  return append(path, keepPiLoadout(system, promptEdit(system, text)), id);
}

interface Step {
  write: string;
  path: SessionEntry[];
  /** What the person asked: the replayed prompt's sections after the write, from those before. */
  expect: (before: Record<string, string>) => Record<string, string>;
}

const RULE = "Never edit files under vendor/ — run `npm test` first. ✓";
const FREE = "Answer in English.";
const with_ = (s: Record<string, string>, name: string, value: string) => ({ ...s, [name]: value });
const without = (s: Record<string, string>, name: string) =>
  Object.fromEntries(Object.entries(s).filter(([k]) => k !== name));

function steps(base: Base): Step[] {
  const out: Step[] = [];
  let path = base.path;
  const push = (write: string, next: SessionEntry[], expect: Step["expect"]) => {
    out.push({ write, path: next, expect });
    path = next;
  };
  push("pin", pin(path, { kind: "add", text: RULE, id: "rule" }, "w-pin1"), (s) =>
    with_(s, "pin-rule", pinSectionValue("pin-rule", RULE)),
  );
  push("second pin", pin(path, { kind: "add", text: FREE, id: "free" }, "w-pin2"), (s) =>
    with_(s, "pin-free", pinSectionValue("pin-free", FREE)),
  );
  push(
    "pin edit",
    pin(path, { kind: "edit", section: "pin-rule", text: `${RULE} (edited)` }, "w-edit"),
    (s) => with_(s, "pin-rule", pinSectionValue("pin-rule", `${RULE} (edited)`)),
  );
  push("unpin", pin(path, { kind: "remove", section: "pin-free" }, "w-unpin"), (s) => without(s, "pin-free"));
  push("compaction with summary instructions", compact(path, "w-compact"), (s) => s);
  push("prompt edit", editPrompt(path, "MY PROMPT", "w-prompt"), (s) => ({
    ...Object.fromEntries(Object.entries(s).filter(([k]) => k.startsWith("pin-"))),
    prompt: "MY PROMPT",
  }));
  return out;
}

interface RowResult {
  base: string;
  write: string;
  check: string;
  ok: boolean;
  detail: string;
}
const rows: RowResult[] = [];

describe.skipIf(!piInstalled)("pi 1.6 restores the same tools and prompt after Cutpoint's writes", () => {
  const bases: Base[] = [
    load("G3-bash-first-kept (no system message)", join(SHARED, "G3-bash-first-kept.jsonl")),
    load("G1-trailing-toolresult (no system message)", join(SHARED, "G1-trailing-toolresult.jsonl")),
    load("example-session (no system message)", resolve(ROOT, "public/examples/example-session.jsonl")),
    load("A-system-usage (pi's prompt and tools)", join(SHARED, "A-system-usage.jsonl")),
    load("B-context-edit (pi's prompt and tools)", join(SHARED, "B-context-edit.jsonl")),
    cutpointAgentSession(),
  ];

  it("every row agrees", () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-restore-rows-"));
    const files: string[] = [];
    const plan = bases.map((base, b) => {
      const all = [
        { write: "(before)", path: base.path, expect: (s: Record<string, string>) => s },
        ...steps(base),
      ];
      return all.map((step, i) => {
        const file = join(dir, `${b}-${i}.jsonl`);
        writeFileSync(file, serializeSession(base.header, step.path));
        files.push(file);
        return { ...step, file };
      });
    });
    const run = runWithPi16(resolve(import.meta.dirname, "oracle/restore-view.mjs"), files);
    if (run.status !== 0) throw new Error(run.stderr);
    const views = new Map<string, Restored>();
    for (const line of run.stdout.trim().split("\n")) {
      const v = JSON.parse(line) as Restored & { file: string };
      views.set(v.file, v);
    }
    plan.forEach((states, b) => {
      const base = bases[b]!.name;
      const first = views.get(states[0]!.file)!;
      for (let i = 0; i < states.length; i++) {
        const state = states[i]!;
        const now = views.get(state.file)!;
        // Cutpoint's replay of the prompt is pi's.
        const mine = buildSessionContext(state.path).systemMessage;
        const same =
          JSON.stringify(mine?.sections ?? {}) === JSON.stringify(now.sections) &&
          (mine ? contentText(mine.content) : null) === now.content;
        rows.push({ base, write: state.write, check: "Cutpoint's prompt = pi's", ok: same, detail: "" });
        if (i === 0) continue;
        const before = views.get(states[i - 1]!.file)!;
        rows.push({
          base,
          write: state.write,
          check: "tools",
          ok: JSON.stringify(now.tools) === JSON.stringify(first.tools),
          detail: `${first.tools.join(",")} -> ${now.tools.join(",")}`,
        });
        const wanted = state.expect(before.sections);
        rows.push({
          base,
          write: state.write,
          check: "prompt",
          ok:
            JSON.stringify(Object.entries(now.sections).sort()) ===
              JSON.stringify(Object.entries(wanted).sort()) && (now.content ?? "") === (before.content ?? ""),
          detail: `sections ${Object.keys(before.sections).join(",")} -> ${Object.keys(now.sections).join(",")}`,
        });
      }
      // Sessions without a system message keep pi's default tools.
      if (first.content === null) expect(first.tools).toEqual([...PI_DEFAULT_TOOL_NAMES]);
    });
    const bad = rows.filter((r) => !r.ok);
    expect(bad.map((r) => `${r.base} · ${r.write} · ${r.check}: ${r.detail}`)).toEqual([]);
  }, 120_000);
});

afterAll(() => {
  if (rows.length === 0) return;
  const agree = rows.filter((r) => r.ok).length;
  const perBase = new Map<string, number>();
  for (const r of rows) perBase.set(r.base, (perBase.get(r.base) ?? 0) + 1);
  console.log(
    [
      `pi restore: ${agree} of ${rows.length} rows agree (tools and prompt pi 1.6 restores after each Cutpoint write)`,
      ...[...perBase].map(([base, n]) => `  ${base}: ${n} rows`),
    ].join("\n"),
  );
});
