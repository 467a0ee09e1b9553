/**
 * Property tests over generated sessions (system messages, context edits, failed attempts hidden
 * by omission included): the cut agrees with the readable statement of pi 1.6's rule over the
 * projection (cut-rule.ts, docs/cut-rule.md), keeps tool results with their calls, is deterministic,
 * the incremental planner follows any sequence of paths, and repeated compactions never lose a
 * message (#2608).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildSessionContext } from "../session/context.ts";
import { type ProjectedEntry, projectPath } from "../session/projection.ts";
import type { SessionEntry } from "../session/types.ts";
import { listCutPoints } from "./cut-points.ts";
import { cutByRule } from "./cut-rule.ts";
import { entryMessage, messageRole } from "./entry-messages.ts";
import { planCompaction } from "./plan.ts";
import { createPlanner } from "./planner.ts";
import { buildCompactionEntry } from "./summarize.ts";
import { estimateMessageTokensPi } from "./tokens.ts";

type Action =
  | { t: "user" | "bash" | "custom_message" | "custom_role" | "branch_summary"; n: number }
  | { t: "assistant"; n: number; results: number[] }
  | { t: "setting" | "label" | "system" | "failed_attempt" }
  | { t: "edit"; target: number; omit: boolean; n: number }
  | { t: "compact"; keep: number };

const text = (n: number) => "x".repeat(n);
const size = fc.integer({ min: 0, max: 3000 });
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant("user" as const), n: size }) },
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant("assistant" as const),
      n: size,
      results: fc.array(size, { maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constantFrom(
        "bash" as const,
        "custom_message" as const,
        "custom_role" as const,
        "branch_summary" as const,
      ),
      n: size,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constantFrom("setting" as const, "label" as const, "system" as const, "failed_attempt" as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant("edit" as const), target: fc.nat(), omit: fc.boolean(), n: size }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant("compact" as const), keep: fc.constantFrom(0, 300, 1500, 4000) }),
  },
);

const TS = "2026-01-01T00:00:00.000Z";

/** Builds a path from actions; "compact" appends a compaction planned by our own planner. */
function buildPath(
  actions: Action[],
  onCompact?: (path: SessionEntry[], keep: number) => void,
): SessionEntry[] {
  const path: SessionEntry[] = [];
  let n = 0;
  const add = (fields: Record<string, unknown>) => {
    const id = `e${++n}`;
    path.push({ id, parentId: path.at(-1)?.id ?? null, timestamp: TS, ...fields } as SessionEntry);
    return id;
  };
  const message = (m: Record<string, unknown>) => add({ type: "message", message: { timestamp: n, ...m } });
  for (const a of actions) {
    switch (a.t) {
      case "user":
        message({ role: "user", content: text(a.n) });
        break;
      case "assistant": {
        const calls = a.results.map((_, k) => ({
          type: "toolCall",
          id: `c${n}-${k}`,
          name: ["read", "edit", "write", "bash"][k % 4],
          arguments: { path: `/f${(n + k) % 5}.ts` },
        }));
        const base = n;
        message({
          role: "assistant",
          content: [{ type: "text", text: text(a.n) }, ...calls],
          stopReason: "toolUse",
        });
        a.results.forEach((r, k) => {
          message({
            role: "toolResult",
            toolCallId: `c${base}-${k}`,
            toolName: "read",
            content: [{ type: "text", text: text(r) }],
            isError: false,
          });
        });
        break;
      }
      case "bash":
        message({
          role: "bashExecution",
          command: "ls",
          output: text(a.n),
          exitCode: 0,
          cancelled: false,
          truncated: false,
        });
        break;
      case "custom_role":
        message({ role: "custom", customType: "note", content: text(a.n), display: true });
        break;
      case "custom_message":
        add({ type: "custom_message", customType: "ext", content: text(a.n), display: true });
        break;
      case "branch_summary":
        add({ type: "branch_summary", fromId: "root", summary: text(a.n) });
        break;
      case "setting":
        add({ type: "thinking_level_change", thinkingLevel: "low" });
        break;
      case "label":
        add({ type: "label", targetId: "e1", label: "x" });
        break;
      case "system":
        message({
          role: "system",
          content: n % 2 ? "Prompt." : "",
          sections: { [`s${n % 3}`]: n % 4 ? text(40) : null },
          toolsAdded: [{ name: `tool${n % 3}`, description: "d", parameters: {} }],
        });
        break;
      case "failed_attempt": {
        // A reply that failed (e.g. overflow), then hidden from the model as pi 1.6 records it.
        const id = message({ role: "assistant", content: [], stopReason: "error", errorMessage: "too long" });
        add({ type: "context_edit", targetId: id, replacement: null });
        break;
      }
      case "edit": {
        const targets = path.filter((e) => {
          const role = messageRole(e);
          return (
            role === "user" || role === "assistant" || role === "toolResult" || e.type === "custom_message"
          );
        });
        if (targets.length === 0) break;
        const target = targets[a.target % targets.length]!;
        add({
          type: "context_edit",
          targetId: target.id,
          replacement: a.omit ? null : { content: text(a.n) },
        });
        break;
      }
      case "compact": {
        onCompact?.(path, a.keep);
        const r = planCompaction(path, { keepRecentTokens: a.keep, reserveTokens: 1000 });
        if (r.ok) {
          const id = `e${++n}`;
          path.push(
            buildCompactionEntry({
              id,
              parentId: path.at(-1)?.id ?? null,
              timestamp: TS,
              summary: `summary ${id}`,
              firstKeptEntryId: r.plan.firstKeptEntryId,
              tokensBefore: r.plan.tokensBefore,
              details: r.plan.fileOps,
            }),
          );
        }
        break;
      }
    }
  }
  return path;
}

const est = (p: ProjectedEntry) => p.messages.reduce((n, m) => n + estimateMessageTokensPi(m), 0);
/** What the model sees from path index `from` on (the projection's estimates). */
function keptFrom(path: SessionEntry[], from: number): number {
  return projectPath(path)
    .filter((p) => p.pathIndex >= from && p.entry.type !== "compaction")
    .reduce((n, p) => n + est(p), 0);
}

const keepArb = fc.constantFrom(0, 1, 200, 1000, 2500, 8000, 100000);

describe("plan properties", () => {
  it("matches the readable rule (cut-rule.ts), and the cut is valid", () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 60 }), keepArb, (actions, keep) => {
        const path = buildPath(actions);
        const r = planCompaction(path, { keepRecentTokens: keep, reserveTokens: 1000 });
        if (!r.ok && !r.plan) {
          const empty = path.length === 0 || path.at(-1)!.type === "compaction";
          expect(empty || cutByRule(path, keep) === undefined).toBe(true);
          return;
        }
        const plan = r.ok ? r.plan : r.plan!;
        const naive = cutByRule(path, keep);
        expect({
          firstKept: plan.firstKeptIndex,
          turnStart: plan.turnStartIndex,
          split: plan.isSplitTurn,
        }).toEqual(naive);
        // A tool result the model sees is never the cut (an omitted one can be: the model sees nothing of it).
        const first = projectPath(path).find((p) => p.pathIndex === plan.firstKeptIndex);
        if (first?.messages.length) expect(messageRole(path[plan.firstKeptIndex]!)).not.toBe("toolResult");
      }),
      { numRuns: 300 },
    );
  });

  it("a tool result the model sees always stays with its call", () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 60 }), keepArb, (actions, keep) => {
        const path = buildPath(actions);
        const r = planCompaction(path, { keepRecentTokens: keep, reserveTokens: 1000 });
        if (!r.ok) return;
        const kept = projectPath(path).filter((p) => p.pathIndex >= r.plan.firstKeptIndex);
        const callIds = new Set<string>();
        for (const { entry, messages } of kept) {
          // The call's entry is kept (an edit may have rewritten its content: that is the edit's doing).
          const stored = entryMessage(entry);
          if (stored?.role === "assistant")
            for (const b of stored.content) if (b.type === "toolCall") callIds.add(b.id);
          for (const m of messages) if (m.role === "toolResult") expect(callIds.has(m.toolCallId)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("kept tokens are what the model sees from the first kept entry on", () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 60 }), keepArb, (actions, keep) => {
        const path = buildPath(actions);
        const r = planCompaction(path, { keepRecentTokens: keep, reserveTokens: 1000 });
        const plan = r.ok ? r.plan : r.plan;
        if (!plan) return;
        expect(plan.keptTokens).toBe(keptFrom(path, plan.firstKeptIndex));
      }),
      { numRuns: 300 },
    );
  });

  it("is deterministic, and the one-shot and incremental planners agree field for field", () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 50 }), keepArb, (actions, keep) => {
        const path = buildPath(actions);
        const settings = { keepRecentTokens: keep, reserveTokens: 1000 };
        const a = planCompaction(path, settings);
        const b = planCompaction(structuredClone(path), settings);
        const planner = createPlanner();
        for (let i = 0; i < path.length; i++) planner.setPath(path.slice(0, i + 1));
        const c = planner.plan(settings);
        expect(JSON.stringify(b)).toBe(JSON.stringify(a));
        expect(JSON.stringify(c)).toBe(JSON.stringify(a));
      }),
      { numRuns: 200 },
    );
  });

  it("the incremental planner (plan, context size, cut point list) follows any sequence of paths (extend, shorten, re-read last entry)", () => {
    fc.assert(
      fc.property(
        fc.array(action, { minLength: 1, maxLength: 50 }),
        fc.array(fc.record({ at: fc.nat(), reread: fc.boolean() }), { minLength: 1, maxLength: 8 }),
        keepArb,
        (actions, steps, keep) => {
          const path = buildPath(actions);
          if (path.length === 0) return;
          const planner = createPlanner();
          const settings = { keepRecentTokens: keep, reserveTokens: 1000 };
          for (const step of steps) {
            const slice = path.slice(0, 1 + (step.at % path.length));
            if (step.reread) slice[slice.length - 1] = structuredClone(slice[slice.length - 1]!);
            planner.setPath(slice);
            expect(planner.length).toBe(slice.length);
            expect(JSON.stringify(planner.plan(settings))).toBe(
              JSON.stringify(planCompaction(slice, settings)),
            );
            expect(JSON.stringify(planner.listCutPoints())).toBe(JSON.stringify(listCutPoints(slice)));
            const direct = planCompaction(slice, settings);
            const plan = direct.ok ? direct.plan : direct.plan;
            if (plan)
              expect(planner.contextTokens()).toEqual({
                tokens: plan.tokensBefore,
                source: plan.tokensBeforeSource,
              });
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("#2608: successive compactions never lose a message the context held", () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 80 }), (actions) => {
        const path = buildPath(actions, (before, keep) => {
          const r = planCompaction(before, { keepRecentTokens: keep, reserveTokens: 1000 });
          if (!r.ok) return;
          const ctx = buildSessionContext(before);
          const prev =
            r.plan.previousCompactionIndex >= 0 ? before[r.plan.previousCompactionIndex]!.id : undefined;
          const covered = new Set([
            ...r.plan.messagesToSummarize.entryIds,
            ...r.plan.turnPrefixMessages.entryIds,
            ...before.slice(r.plan.firstKeptIndex).map((e) => e.id),
          ]);
          // System messages are prompt state: the compaction's checkpoint carries them.
          ctx.messages.forEach((m, i) => {
            const id = ctx.entryIds[i]!;
            if (id !== prev && m.role !== "system") expect(covered.has(id)).toBe(true);
          });
          // And after appending the compaction, the kept part is exactly what the context resumes with.
          const after = [
            ...before,
            buildCompactionEntry({
              id: "new",
              parentId: before.at(-1)!.id,
              timestamp: TS,
              summary: "s",
              firstKeptEntryId: r.plan.firstKeptEntryId,
              tokensBefore: 0,
              details: r.plan.fileOps,
            }),
          ];
          const ctxAfter = buildSessionContext(after);
          const keptContext = ctx.projection
            .filter((p) => p.pathIndex >= r.plan.firstKeptIndex && p.entry.type !== "compaction")
            .flatMap((p) => p.messages.filter((m) => m.role !== "system").map(() => p.entry.id));
          expect(ctxAfter.entryIds).toEqual(["new", ...keptContext]);
        });
        expect(path.filter((e) => e.type === "compaction").length).toBeLessThanOrEqual(actions.length);
      }),
      { numRuns: 300 },
    );
  });
});
