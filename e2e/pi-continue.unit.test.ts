/**
 * pi 1.6 continues a session Cutpoint touched, for real: Cutpoint pins and compacts (its services,
 * on an in-memory database), exports, and pi's own `pi` command runs in print mode against the
 * project's mock server on a temporary copy, with Cutpoint's pins extension installed (five
 * prompts: a tool call, an automatic compaction) and without it (one prompt). Then Cutpoint
 * imports what pi wrote. Checked: the pins in every request pi sends to continue the conversation,
 * the tools pi declares, the plans before pi's compactions equal to what pi wrote, and, without the
 * extension, what pi does (the pins leave, the tools stay). Skips when pi 1.6 is not installed.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PiWorld, piPrint, piWorld } from "../src/conformance/pi-cli.ts";
import { runWithPi16 } from "../src/conformance/pi16.ts";
import { pinsOf } from "../src/core/agent/pins.ts";
import { generateOfflineCompaction } from "../src/core/compaction/offline-summary.ts";
import { planCompaction } from "../src/core/compaction/plan.ts";
import { planFields } from "../src/core/compaction/summarize.ts";
import { buildSessionContext } from "../src/core/session/context.ts";
import { parseSessionJsonl } from "../src/core/session/parse.ts";
import { currentPath, getPath } from "../src/core/session/tree.ts";
import type { CompactionEntry, SessionEntry } from "../src/core/session/types.ts";
import { type CutpointDb, createDb } from "../src/db/schema.ts";
import { exportSession, prepareSession, readEntries, saveSession } from "../src/db/sessions-repo.ts";
import { confirmCompaction } from "../src/services/compaction/compaction-runner.ts";
import { prepareImport } from "../src/services/import/import-prepare.ts";
import { changePin } from "../src/services/prompt/pins-service.ts";
import { piAvailable } from "./lib/pi-oracle.ts";
import { type MockServer, startMockServer } from "./mock/server.ts";
import type { RecordedRequest, ReplySpec } from "./mock/types.ts";

const SHARED = resolve(import.meta.dirname, "../../shared/fixtures/pi16");
const RULE = "PIN-RULE: never edit files under vendor/; run `npm test` before a commit. ✓";
const STYLE = "PIN-STYLE: answer in English and cite paths as a/b.ts:12.";
const SETTINGS = { reserveTokens: 2000, keepRecentTokens: 500 };

type Chat = { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };
const text = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? (content as { text?: string }[]).map((b) => b.text ?? "").join("")
      : "";
const systemText = (chat: Chat) =>
  chat.messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .map((m) => text(m.content))
    .join("\n");
/** Requests that continue the conversation (they offer tools); a summary request offers none. */
const turnRequests = (requests: RecordedRequest[]) =>
  requests.map((r) => r.body as Chat).filter((chat) => (chat.tools?.length ?? 0) > 0);

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: Number(process.env.CUTPOINT_PI_MOCK_PORT ?? 0) });
});
afterAll(async () => {
  await mock?.close();
});

async function script(key: string, replies: ReplySpec[]) {
  await fetch(`http://127.0.0.1:${mock.port}/__mock/script`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, replies }),
  });
}
async function requests(key: string): Promise<RecordedRequest[]> {
  const res = await fetch(`http://127.0.0.1:${mock.port}/__mock/requests?key=${key}`);
  return ((await res.json()) as { requests: RecordedRequest[] }).requests.filter((r) =>
    r.path.endsWith("/chat/completions"),
  );
}

function world(key: string, extension: boolean): PiWorld {
  return piWorld({
    baseUrl: mock.baseUrl,
    apiKey: key,
    contextWindow: 8000,
    maxTokens: 1000,
    compaction: SETTINGS,
    extension,
  });
}

/**
 * Cutpoint's side: imports a pi 1.6 file (its cwd pointed at `cwd`), pins two instructions with the
 * Pins dialog's service, compacts when asked (the review's confirm, offline summary) and exports.
 */
async function cutpointPinsAndCompacts(file: string, cwd: string, compact: boolean): Promise<string> {
  const db: CutpointDb = createDb(`pi-continue-${Math.random()}`, {
    indexedDB: new IDBFactory(),
    IDBKeyRange,
  });
  try {
    const parsed = parseSessionJsonl(readFileSync(file, "utf8"));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const header = { ...parsed.value.header, cwd };
    const saved = await saveSession(db, prepareSession(header, parsed.value.entries), "new");
    if (!saved.ok) throw new Error(saved.error.message);
    const id = header.id;
    for (const pin of [RULE, STYLE]) {
      const path = currentPath(await readEntries(db, id));
      const r = await changePin(db, id, {
        path,
        request: { kind: "add", text: pin },
        expectedLeafId: path[path.length - 1]!.id,
      });
      if (!r.ok) throw new Error(r.error.message);
    }
    if (compact) {
      const path = currentPath(await readEntries(db, id));
      const planned = planCompaction(path, { keepRecentTokens: 200, reserveTokens: 16384 });
      if (!planned.ok) throw new Error(planned.reason);
      const generated = generateOfflineCompaction(planned.plan);
      if (!generated.ok) throw new Error(generated.error);
      const leaf = path[path.length - 1]!.id;
      const r = await confirmCompaction(db, {
        sessionId: id,
        parentId: leaf,
        expectedLeafId: leaf,
        fields: planFields(planned.plan, generated.fields.summary),
      });
      if (!r.ok) throw new Error(r.error.message);
    }
    const exported = await exportSession(db, id);
    if (!exported.ok) throw new Error(exported.error.message);
    const out = join(mkdtempSync(join(tmpdir(), "cutpoint-export-")), exported.value.fileName);
    writeFileSync(out, exported.value.parts.join(""));
    return out;
  } finally {
    db.close();
  }
}

/** The file pi wrote, as Cutpoint imports it: the path at its leaf. */
function importBack(file: string): SessionEntry[] {
  const text = readFileSync(file, "utf8");
  const candidate = prepareImport("pi.jsonl", text);
  if (!candidate.ok) throw new Error(candidate.error.message);
  const parsed = parseSessionJsonl(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return currentPath(parsed.value.entries);
}

/** The tools pi's AgentSession restores from a file (read on a copy). */
function piRestoredTools(file: string): string[] {
  const run = runWithPi16(resolve(import.meta.dirname, "../src/conformance/oracle/restore-view.mjs"), [file]);
  if (run.status !== 0) throw new Error(run.stderr);
  return (JSON.parse(run.stdout.trim()) as { tools: string[] }).tools;
}

async function continueInPi(w: PiWorld, file: string, prompts: string[]) {
  for (const prompt of prompts) {
    const run = await piPrint(w, file, prompt);
    if (run.status !== 0) throw new Error(`pi -p ${JSON.stringify(prompt)} failed: ${run.stderr}`);
  }
}

const report: string[] = [];

describe.skipIf(!piAvailable())("pi 1.6 continues a session Cutpoint pinned and compacted", () => {
  it("with the pins extension: five prompts, a tool call and a compaction; the pins in every request", async () => {
    const key = `pi-continue-ext-${process.pid}`;
    const w = world(key, true);
    writeFileSync(join(w.cwd, "notes.txt"), "NOTES-FILE-CONTENT: the answer is 42\n");
    const file = await cutpointPinsAndCompacts(join(SHARED, "G3-bash-first-kept.jsonl"), w.cwd, true);
    const toolsBefore = piRestoredTools(file);
    const exported = readFileSync(file, "utf8");
    const idsBefore = new Set(exported.split("\n").map((l) => /"id":"([^"]+)"/.exec(l)?.[1]));
    await script(key, [
      { text: "First answer." },
      { toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
      { text: "The notes say 42." },
      // A reply whose usage passes the threshold (8000 - 2000): pi compacts after this run.
      { text: "Third answer.", usage: { prompt_tokens: 7000, completion_tokens: 20 } },
    ]);
    await continueInPi(w, file, [
      "first prompt",
      "read notes.txt",
      "third prompt",
      "fourth prompt",
      "fifth prompt",
    ]);

    const turns = turnRequests(await requests(key));
    expect(turns.length).toBeGreaterThanOrEqual(6);
    for (const chat of turns) {
      expect(systemText(chat)).toContain(RULE);
      expect(systemText(chat)).toContain(STYLE);
      expect(chat.tools!.map((t) => t.function.name).sort()).toEqual([...toolsBefore].sort());
    }
    // The tool ran: its result went back to the model.
    expect(JSON.stringify(turns.map((c) => c.messages))).toContain("NOTES-FILE-CONTENT");

    // Cutpoint imports what pi wrote: the pins are still the session's, and each compaction pi made
    // is the one Cutpoint plans at its parent with pi's settings.
    const path = importBack(file);
    expect(pinsOf(buildSessionContext(path).systemMessage).map((p) => p.text)).toEqual([RULE, STYLE]);
    const all = parseSessionJsonl(readFileSync(file, "utf8"));
    if (!all.ok) throw new Error(all.error.message);
    const byPi = all.value.entries.filter(
      (e): e is CompactionEntry => e.type === "compaction" && !idsBefore.has(e.id),
    );
    expect(byPi.length).toBeGreaterThanOrEqual(1);
    let equal = 0;
    for (const c of byPi) {
      const before = getPath(new Map(all.value.entries.map((e) => [e.id, e])), c.parentId);
      const planned = planCompaction(before, SETTINGS);
      if (!planned.ok) throw new Error(planned.reason);
      expect({ firstKept: planned.plan.firstKeptEntryId, tokensBefore: planned.plan.tokensBefore }).toEqual({
        firstKept: c.firstKeptEntryId,
        tokensBefore: c.tokensBefore,
      });
      expect(pinsOf(c.systemMessage).map((p) => p.text)).toEqual([RULE, STYLE]);
      equal++;
    }
    report.push(
      `with the extension: ${turns.length} of ${turns.length} conversation requests carry both pins; tools ${toolsBefore.join(",")} in each; pi compactions ${byPi.length}, plans equal ${equal} of ${byPi.length}`,
    );
  }, 240_000);

  it("without the extension: pi drops the pins on its first request, keeps its tools", async () => {
    const key = `pi-continue-plain-${process.pid}`;
    const w = world(key, false);
    const file = await cutpointPinsAndCompacts(join(SHARED, "G3-bash-first-kept.jsonl"), w.cwd, false);
    const tools = piRestoredTools(file);
    expect(tools).toEqual(["read", "bash", "edit", "write"]);
    await continueInPi(w, file, ["a prompt"]);
    const turns = turnRequests(await requests(key));
    expect(turns).toHaveLength(1);
    expect(systemText(turns[0]!)).not.toContain("PIN-");
    expect(turns[0]!.tools!.map((t) => t.function.name)).toEqual(tools);
    expect(pinsOf(buildSessionContext(importBack(file)).systemMessage)).toEqual([]);
    report.push(
      `without the extension: 0 of 1 requests carry a pin, pins left in the file 0; tools ${tools.join(",")}`,
    );
  }, 120_000);

  it("a session with pi's own prompt and tools: the pin rides along, the tools are the ones pi restored", async () => {
    const key = `pi-continue-system-${process.pid}`;
    const w = world(key, true);
    const source = join(SHARED, "A-system-usage.jsonl");
    const file = await cutpointPinsAndCompacts(source, w.cwd, false);
    const tools = piRestoredTools(file);
    expect(tools).toEqual(piRestoredTools(source));
    await continueInPi(w, file, ["one", "two"]);
    const turns = turnRequests(await requests(key));
    expect(turns).toHaveLength(2);
    for (const chat of turns) {
      expect(systemText(chat)).toContain(RULE);
      expect(chat.tools!.map((t) => t.function.name).sort()).toEqual([...tools].sort());
    }
    report.push(`pi's own prompt: 2 of 2 requests carry the pins; tools ${tools.join(",")}`);
  }, 120_000);
});

afterAll(() => {
  if (report.length > 0) console.log(`pi round trip:\n  ${report.join("\n  ")}`);
});
