/**
 * The offline summary on the real fixture: its notice, sections and split-turn part, the task as the
 * goal, rules as sentences, resolved failures never blocked, a previous summary updated (one goal),
 * bounded length; the digest's outcomes and decisions.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildTreeIndex, getPath, resolveLeafId } from "../session/tree.ts";
import type { AgentMessage } from "../session/types.ts";
import { emptyUsage } from "../session/usage.ts";
import {
  generateOfflineCompaction,
  OFFLINE_SUMMARY_NOTICE,
  offlineSummaryText,
  startOfflineCompaction,
} from "./offline-summary.ts";
import { digestMessages, latestDecisions, realRequest } from "./offline-summary-digest.ts";
import { HISTORY_MAX_CHARS } from "./offline-summary-sections.ts";
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

  it("carries the decisions stated in the split turn's prefix in that part", () => {
    // At line 596 the plan splits a turn whose prefix states decisions.
    const split = plan(596);
    expect(split.isSplitTurn).toBe(true);
    const decided = latestDecisions(split.turnPrefixMessages.messages);
    expect(decided.length).toBeGreaterThan(0);
    const written = offlineSummaryText(split);
    const part = written.slice(written.indexOf("## Context for Suffix"));
    for (const d of decided) expect(part).toContain(`- Decided: ${d}`);
  });

  it("states the task with the latest intent first, not acknowledgements, pastes or questions", () => {
    const goal = section(text, "## Goal");
    const lines = goal.trim().split("\n");
    expect(lines.length).toBeLessThanOrEqual(2);
    expect(lines[0]).toBe(
      "Continue investigate give me a root cause analysis and a plan on how to fix this.",
    );
    expect(lines[1]).toMatch(/^Overall: Refactor `coding-agent`/);
    expect(goal).not.toMatch(/left out|^- - |can leave it|\{"type":"message"/m);
  });

  it("states rules as sentences that read on their own, and never an old, resolved failure as blocked", () => {
    const rules = section(text, "## Constraints & Preferences");
    expect(rules).not.toMatch(/need to be fully clean/i);
    expect(rules).toContain("- Keep old code working alongside new code");
    const blocked = section(text, "### Blocked");
    expect(blocked).not.toContain("Cannot find module");
    expect(blocked).not.toContain("Command aborted");
    expect(section(text, "### Done")).toContain("Committed: “Move config.ts from utils/ to src/”.");
    expect(section(text, "### Done")).not.toContain("Ran `git add`");
    expect(section(text, "## Next Steps")).not.toMatch(/assistant's last plan|:\n/);
    expect(section(text, "## Next Steps")).toContain("2. Check if it compiles.");
  });

  it("updates the previous summary section by section: one Goal, one Progress, no pasted copy", () => {
    const p = plan(628);
    expect(p.previousSummary).toBeDefined();
    const t = offlineSummaryText(p);
    for (const h of ["## Goal", "## Progress", "### Done", "## Next Steps", "## Critical Context"])
      expect(
        t.split("\n").filter((l) => l === h),
        h,
      ).toHaveLength(1);
    expect(t).not.toContain("Earlier Summary");
    expect(t).not.toContain("Context Checkpoint");
    // The previous goal is kept as the overall task, its next steps (WP14) are restated, not pasted.
    expect(section(t, "## Goal")).toContain("Overall: Refactor `coding-agent`");
    expect(section(t, "## Next Steps")).not.toContain("Copy `main.ts` to `main-new.ts`");
    // Updating an offline summary again keeps one Goal.
    const again = offlineSummaryText({ ...p, previousSummary: t });
    expect(again.split("\n").filter((l) => l === "## Goal")).toHaveLength(1);
  });

  it("is bounded: the history part stays within its length at every line of the fixture", () => {
    for (const line of [120, 359, 500, 628, 800, 1003]) {
      const p = plan(line, 3000);
      const t = offlineSummaryText(p).split(SPLIT_TURN_HEADING)[0]!;
      expect(t.length, String(line)).toBeLessThanOrEqual(
        HISTORY_MAX_CHARS + OFFLINE_SUMMARY_NOTICE.length + 4,
      );
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
    expect(section(t, "### Blocked")).toContain("- `npm test` fails: FAIL src/a.test.ts");
    expect(section(t, "### In Progress")).toContain("- [ ] Run the tests please.");
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
  it("marks an outcome resolved when a later call on its target succeeds, and only then or when a later change or run fixed it (whole fixture, repeated)", () => {
    const p = plan(0, 3000);
    const once = p.messagesToSummarize.messages;
    // Repeated: every target comes back many times, as in the generated 100 MB session.
    const messages = [...once, ...once, ...once];
    const { outcomes } = digestMessages(messages);
    expect(outcomes.length).toBeGreaterThan(100);
    expect(outcomes.some((o) => !o.ok)).toBe(true);
    let other = 0;
    outcomes.forEach((o, i) => {
      const rest = outcomes.slice(i + 1);
      const later = rest.some((x) => x.target === o.target && x.ok);
      if (later) expect(o.resolved, `${i} ${o.target}`).toBe(true);
      if (!o.resolved || later) return;
      // Resolved otherwise: a failed command run later with an argument, a failed reply answered
      // again, or a failure whose error names a file changed later.
      other++;
      const ran = rest.some((x) => x.ok && o.command && x.command?.startsWith(`${o.command} `));
      expect(ran || o.target === "model reply" || /\//.test(o.error ?? ""), `${i} ${o.target}`).toBe(true);
    });
    expect(other).toBeGreaterThan(0);
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
