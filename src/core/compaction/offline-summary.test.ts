/**
 * The offline summary on the real fixture: its notice, sections and split-turn part, real requests as goals,
 * rules and failures placed, ≥ 95% of its own coverage; the digest's outcomes and decisions.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildTreeIndex, getPath, resolveLeafId } from "../session/tree.ts";
import type { AgentMessage } from "../session/types.ts";
import { emptyUsage } from "../session/usage.ts";
import { coverageOf } from "./coverage.ts";
import {
  generateOfflineCompaction,
  OFFLINE_SUMMARY_NOTICE,
  offlineSummaryText,
  startOfflineCompaction,
} from "./offline-summary.ts";
import { digestMessages, realRequest } from "./offline-summary-digest.ts";
import { type CompactionPlan, planCompaction } from "./plan.ts";
import { SPLIT_TURN_HEADING } from "./prompts.ts";
import { loadFixture, pathThroughLine } from "./test-fixture.ts";

const fixture = loadFixture();

function plan(lastLine: number, keep = 20000) {
  const path =
    lastLine === 0
      ? getPath(buildTreeIndex(fixture.entries).byId, resolveLeafId(fixture.entries))
      : pathThroughLine(fixture, lastLine);
  const r = planCompaction(path, { keepRecentTokens: keep, reserveTokens: 16384 });
  if (!r.ok) throw new Error(r.reason);
  return r.plan;
}

const SECTIONS = [
  "## Goal",
  "## Constraints & Preferences",
  "## Progress",
  "### Done",
  "### In Progress",
  "### Blocked",
  "## Key Decisions",
  "## Next Steps",
  "## Critical Context",
];

function section(text: string, heading: string): string {
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) return "";
  const rest = text.slice(start + heading.length + 1);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

describe("offline summary", () => {
  const leaf = plan(0);
  const text = offlineSummaryText(leaf);

  it("says on its first line that it was made offline, without a model", () => {
    expect(text.split("\n")[0]).toBe(OFFLINE_SUMMARY_NOTICE);
  });

  it("has the model's sections in order, then the split turn's part", () => {
    let at = 0;
    for (const s of SECTIONS) {
      const i = text.indexOf(`${s}\n`, at);
      expect(i, s).toBeGreaterThanOrEqual(at);
      at = i;
    }
    expect(leaf.isSplitTurn).toBe(true);
    const split = text.indexOf(SPLIT_TURN_HEADING);
    expect(split).toBeGreaterThan(at);
    for (const s of ["## Original Request", "## Early Progress", "## Context for Suffix"])
      expect(text.indexOf(s)).toBeGreaterThan(split);
    expect(text).not.toMatch(/summarized above/);
  });

  it("states real requests as the goal, not acknowledgements or pastes", () => {
    const goal = section(text, "## Goal");
    expect(goal).not.toMatch(/^- (can leave it|ok|yo|wow)$/m);
    expect(goal).toContain("move @packages/coding-agent/src/utils/config.ts to src/");
    expect(goal).not.toContain('{"type":"message"');
    expect(goal).toContain("why are there 2 subscription handlers?");
  });

  it("puts the person's rules under Constraints and failures under Blocked / Critical Context", () => {
    expect(section(text, "## Constraints & Preferences")).toContain("- yes need to be fully clean");
    const critical = section(text, "## Critical Context");
    expect(critical).toContain("edit: No changes made to /Users/badlogic/workspaces/pi-mono/AGENTS.md.");
    expect(critical).toContain(
      "pasted: Error: ENOENT: no such file or directory, open '/Users/badlogic/workspaces/pi-mono/packages/coding-agent/src/package.json'",
    );
    expect(critical).toContain("`queueMessage`");
    expect(section(text, "### Blocked")).toContain("bash `npm run check` failed: Command aborted");
    expect(section(text, "### Done")).toContain("- [x] Ran `git commit`");
  });

  it("keeps the earlier summary with its headings below the summary's own", () => {
    expect(text).toContain("## Earlier Summary");
    expect(text).toContain("### Context Checkpoint: Coding Agent Refactoring");
    expect(text.match(/^## Goal$/gm)).toHaveLength(1);
  });

  it("covers every item of its own coverage check at the leaf and at other lines", () => {
    for (const p of [leaf, plan(120), plan(359), plan(600), plan(900, 2000)]) {
      const r = generateOfflineCompaction(p);
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      const report = coverageOf(r.fields.summary, p);
      expect(report.total).toBeGreaterThan(10);
      expect(report.covered / report.total).toBeGreaterThanOrEqual(0.95);
    }
  });

  it("is deterministic and has generateCompaction's result shape with file blocks", () => {
    const p = plan(359);
    const a = generateOfflineCompaction(p);
    const b = generateOfflineCompaction(plan(359));
    expect(a).toEqual(b);
    expect(a.ok).toBe(true);
    if (!a.ok) return;
    expect(a.fields.firstKeptEntryId).toBe(p.firstKeptEntryId);
    expect(a.fields.tokensBefore).toBe(175004);
    expect(a.fields.details).toEqual(p.fileOps);
    expect(a.fields.summary).toContain("<modified-files>\n");
  });

  it("names the noise it skips: debugger chatter is never the error", () => {
    const messages: AgentMessage[] = [
      { role: "user", content: "run the tests please", timestamp: 1 },
      {
        role: "assistant",
        content: [{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "npm test" } }],
        api: "x",
        provider: "x",
        model: "x",
        usage: emptyUsage(),
        stopReason: "toolUse",
        timestamp: 2,
      },
      {
        role: "toolResult",
        toolCallId: "c1",
        toolName: "bash",
        content: [{ type: "text", text: "Debugger attached.\nFAIL src/a.test.ts\nexpected 1 to be 2" }],
        isError: true,
        timestamp: 3,
      },
    ];
    const p = {
      messagesToSummarize: { messages, entryIds: ["a", "b", "c"] },
      turnPrefixMessages: { messages: [], entryIds: [] },
      isSplitTurn: false,
      turnPrefixCount: 0,
      previousSummary: undefined,
    } as unknown as CompactionPlan;
    const t = offlineSummaryText(p);
    expect(t).not.toContain("Debugger attached");
    expect(t).toContain("bash `npm test` failed: FAIL src/a.test.ts");
    expect(section(t, "### In Progress")).toContain("- [ ] run the tests please");
  });
});

describe("realRequest", () => {
  it("drops slash commands, acknowledgements and paste-only messages, keeps the lead-in of a paste", () => {
    expect(realRequest("/compact focus on tests").request).toBeUndefined();
    for (const ack of [
      "ok",
      "thanks!",
      "can leave it",
      "wow, it works",
      "jesus, everything works, you are a monster",
      "danke",
      "merci",
      "vale",
    ])
      expect(realRequest(ack).request, ack).toBeUndefined();
    expect(realRequest('{"type":"message","a":1}\n{"type":"message","b":2}').request).toBeUndefined();
    const r = realRequest("this fails:\n  at foo (a.js:1:2)\n  at bar (b.js:3:4)");
    expect(r).toEqual({ request: "this fails:", pasted: true });
  });
});

describe("digestMessages outcomes", () => {
  it("marks an outcome resolved exactly when a later call on its target succeeds (whole fixture, repeated)", () => {
    const p = plan(0, 3000);
    const once = p.messagesToSummarize.messages;
    // Repeated: every target comes back many times, as in the generated 100 MB session.
    const messages = [...once, ...once, ...once];
    const { outcomes } = digestMessages(messages);
    expect(outcomes.length).toBeGreaterThan(100);
    expect(outcomes.some((o) => !o.ok)).toBe(true);
    outcomes.forEach((o, i) => {
      const later = outcomes.slice(i + 1).some((x) => x.target === o.target && x.ok);
      expect(o.resolved, `${i} ${o.target}`).toBe(later);
    });
  });
});

describe("digestMessages decisions", () => {
  const said = (text: string): AgentMessage =>
    ({
      role: "assistant",
      content: [{ type: "text", text }],
      stopReason: "stop",
      timestamp: 0,
    }) as unknown as AgentMessage;

  it("are the last six distinct decisions, in the order last stated, however long the range", () => {
    const decision = (n: number) => `We decided to keep option ${n} for now.`;
    const messages = [
      said(`${decision(1)} Then more text.`),
      said("Nothing to decide here."),
      ...Array.from({ length: 2000 }, (_, i) => said(decision(i % 3))),
      said(`${decision(4)} ${decision(5)}`),
      said(decision(0)),
      said("Why not use option 9 instead of 8?"),
      said(decision(6)),
    ];
    // From the end: 6, 0 (a question is not one), 5, 4, then the loop's last ones: 1 (i = 1999), 0 again, 2.
    expect(digestMessages(messages).decisions).toEqual([2, 1, 4, 5, 0, 6].map(decision));
  });
});

describe("startOfflineCompaction", () => {
  it("written in steps of any size, it is the summary written at once (history, split turn, nothing)", () => {
    const plans = [plan(0), plan(0, 3000), plan(fixture.lines.at(-1)!, 1500)];
    expect(plans.some((p) => p.isSplitTurn && p.turnPrefixCount > 0)).toBe(true);
    for (const p of plans) {
      const atOnce = generateOfflineCompaction(p);
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 700 }), (count) => {
          const job = startOfflineCompaction(p);
          let steps = 1;
          while (!job.step(count)) steps++;
          // Each step reads `count` messages at most per part, twice over (digest, then items).
          const total = p.messagesToSummarize.messages.length + p.turnPrefixMessages.messages.length;
          expect(steps).toBeGreaterThanOrEqual(Math.ceil(total / (2 * count)));
          expect(job.result()).toEqual(atOnce);
        }),
        { numRuns: 12 },
      );
    }
  });
});
