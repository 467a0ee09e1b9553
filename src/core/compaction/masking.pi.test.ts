/** pi 1.6 as oracle: after masking and a recorded compaction, pi builds the context Cutpoint builds. */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PI_MANAGER, PI_NODE, piAvailable } from "../../../e2e/lib/pi-oracle.ts";
import { coverageOf } from "../coverage/coverage.ts";
import { coverageDetails } from "../coverage/coverage-details.ts";
import { buildSessionContext } from "../session/context.ts";
import { serializeSession } from "../session/export.ts";
import { PI_FIXTURE } from "../session/fixture-path.ts";
import { parseSessionJsonl } from "../session/parse.ts";
import { currentPath } from "../session/tree.ts";
import { summaryRecord, withRecord } from "./compaction-record.ts";
import { isMasked, planMasking } from "./masking.ts";
import { generateOfflineCompaction } from "./offline-summary.ts";
import { planCompaction } from "./plan.ts";
import { buildCompactionEntry } from "./summarize.ts";

/** What pi 1.6 builds for the file: the roles, and how many tool results carry a mask placeholder. */
function piContext(file: string): { roles: string[]; masked: number; leafId: string | null } {
  const script = `
    import { SessionManager } from ${JSON.stringify(PI_MANAGER)};
    const sm = SessionManager.open(process.argv[1], process.argv[2]);
    const ctx = sm.buildSessionContext();
    const text = (c) => typeof c === "string" ? c : Array.isArray(c) ? c.map((b) => b?.text ?? "").join("") : "";
    process.stdout.write(JSON.stringify({
      leafId: sm.getLeafId() ?? null,
      roles: ctx.messages.map((m) => m.role),
      masked: ctx.messages.filter((m) => m.role === "toolResult" && text(m.content).startsWith("[Tool output masked")).length,
    }));`;
  const dir = mkdtempSync(join(tmpdir(), "pi-oracle-"));
  return JSON.parse(
    execFileSync(PI_NODE, ["--input-type=module", "-e", script, file, dir], { encoding: "utf8" }),
  );
}

describe.skipIf(!piAvailable())("pi 1.6 reads what masking and a recorded compaction write", () => {
  it("masked outputs, then a compaction with coverage and record in details: pi sends the same context", () => {
    const parsed = parseSessionJsonl(readFileSync(PI_FIXTURE, "utf8"));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const path = currentPath(parsed.value.entries);
    const masking = planMasking(path, {
      newId: (n) => `mask${String(n).padStart(4, "0")}`,
      timestamp: "2026-12-01T00:00:00.000Z",
    });
    expect(masking.edits.length).toBeGreaterThan(10);
    const masked = [...path, ...masking.edits];
    const planned = planCompaction(masked, { keepRecentTokens: 20000, reserveTokens: 16384 });
    if (!planned.ok) throw new Error(planned.reason);
    const offline = generateOfflineCompaction(planned.plan);
    if (!offline.ok) throw new Error(offline.error);
    const fields = withRecord(offline.fields, {
      coverage: coverageDetails(coverageOf(offline.fields.summary, planned.plan)),
      record: summaryRecord("masking", "", 0, undefined),
    });
    const compaction = buildCompactionEntry({
      ...fields,
      id: "cmp00001",
      parentId: masked.at(-1)!.id,
      timestamp: "2026-12-01T00:00:01.000Z",
    });
    const entries = [...parsed.value.entries, ...masking.edits, compaction];
    mkdirSync("/tmp/cutpoint-pi-oracle", { recursive: true });
    const file = `/tmp/cutpoint-pi-oracle/masking-${process.pid}.jsonl`;
    writeFileSync(file, serializeSession(parsed.value.header, entries));

    const again = parseSessionJsonl(readFileSync(file, "utf8"));
    if (!again.ok) throw new Error(again.error.message);
    const ours = buildSessionContext(currentPath(again.value.entries)).messages;
    const pi = piContext(file);
    expect(pi.leafId).toBe("cmp00001");
    expect(pi.roles).toEqual(ours.map((m) => m.role));
    expect(pi.masked).toBe(ours.filter((m) => m.role === "toolResult" && isMasked(m.content)).length);
    // And before the compaction: the masked context itself, as pi builds it.
    const beforeFile = `/tmp/cutpoint-pi-oracle/masked-${process.pid}.jsonl`;
    writeFileSync(
      beforeFile,
      serializeSession(parsed.value.header, [...parsed.value.entries, ...masking.edits]),
    );
    const piMasked = piContext(beforeFile);
    const oursMasked = buildSessionContext(masked).messages;
    expect(piMasked.roles).toEqual(oursMasked.map((m) => m.role));
    expect(piMasked.masked).toBe(masking.edits.length);
  });
});
