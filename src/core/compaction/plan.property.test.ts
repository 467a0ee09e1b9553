/**
 * Property tests over generated sessions: the cut agrees with a naive restatement of §7, is a
 * valid cut point, keeps tool results with their calls, is deterministic, and repeated
 * compactions never lose a message (#2608).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildSessionContext } from "../session/context.ts";
import type { AgentMessage, SessionEntry } from "../session/types.ts";
import { listCutPoints } from "./cut-points.ts";
import { entryMessage, isTurnStart, isValidCutPoint, messageRole } from "./entry-messages.ts";
import { planCompaction } from "./plan.ts";
import { createPlanner } from "./planner.ts";
import { buildCompactionEntry } from "./summarize.ts";
import { estimateMessageTokensPi } from "./tokens.ts";

type Action =
  | { t: "user" | "bash" | "custom_message" | "custom_role" | "branch_summary"; n: number }
  | { t: "assistant"; n: number; results: number[] }
  | { t: "setting" | "label" }
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
  { weight: 1, arbitrary: fc.record({ t: fc.constantFrom("setting" as const, "label" as const) }) },
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

/** §7 restated naively (linear walks, as the doc words it). */
function naiveCut(
  path: SessionEntry[],
  keep: number,
): { firstKept: number; turnStart: number; split: boolean } {
  let lc = -1;
  for (let i = 0; i < path.length; i++) if (path[i]!.type === "compaction") lc = i;
  let ws = 0;
  if (lc >= 0) {
    const id = (path[lc] as { firstKeptEntryId?: string }).firstKeptEntryId;
    const k = path.findIndex((e) => e.id === id);
    ws = k >= 0 ? k : lc + 1;
  }
  const cuts: number[] = [];
  for (let i = ws; i < path.length; i++) if (isValidCutPoint(path[i]!)) cuts.push(i);
  if (cuts.length === 0) return { firstKept: ws, turnStart: -1, split: false };
  let cut = cuts[0]!;
  let sum = 0;
  for (let i = path.length - 1; i >= ws; i--) {
    const e = path[i]!;
    if (e.type !== "message") continue;
    sum += estimateMessageTokensPi((e as { message: AgentMessage }).message);
    if (sum >= keep) {
      const c = cuts.find((x) => x >= i);
      if (c !== undefined) cut = c;
      break;
    }
  }
  while (cut > ws && path[cut - 1]!.type !== "message" && path[cut - 1]!.type !== "compaction") cut--;
  if (messageRole(path[cut]!) === "user") return { firstKept: cut, turnStart: -1, split: false };
  for (let i = cut; i >= ws; i--)
    if (isTurnStart(path[i]!)) return { firstKept: cut, turnStart: i, split: true };
  return { firstKept: cut, turnStart: -1, split: false };
}

const keepArb = fc.constantFrom(0, 1, 200, 1000, 2500, 8000, 100000);

describe("plan properties", () => {
  it("matches the naive restatement of §7, and the cut is valid", () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 60 }), keepArb, (actions, keep) => {
        const path = buildPath(actions);
        const r = planCompaction(path, { keepRecentTokens: keep, reserveTokens: 1000 });
        if (!r.ok && !r.plan) {
          expect(path.length === 0 || path.at(-1)!.type === "compaction").toBe(true);
          return;
        }
        const plan = r.ok ? r.plan : r.plan!;
        const naive = naiveCut(path, keep);
        expect({
          firstKept: plan.firstKeptIndex,
          turnStart: plan.turnStartIndex,
          split: plan.isSplitTurn,
        }).toEqual(naive);
        // Valid: the first cut point at or after the first kept entry is reached over non-messages only.
        let k = plan.firstKeptIndex;
        while (k < path.length && !isValidCutPoint(path[k]!)) {
          expect(path[k]!.type).not.toBe("message");
          k++;
        }
        if (k === path.length) expect(plan.firstKeptIndex).toBe(plan.windowStart);
        expect(messageRole(path[plan.firstKeptIndex]!)).not.toBe("toolResult");
      }),
      { numRuns: 300 },
    );
  });

  it("a tool result always stays with its call", () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 60 }), keepArb, (actions, keep) => {
        const path = buildPath(actions);
        const r = planCompaction(path, { keepRecentTokens: keep, reserveTokens: 1000 });
        if (!r.ok) return;
        const kept = path.slice(r.plan.firstKeptIndex);
        const callIds = new Set<string>();
        for (const e of kept) {
          const m = entryMessage(e);
          if (m?.role === "assistant")
            for (const b of m.content) if (b.type === "toolCall") callIds.add(b.id);
          if (m?.role === "toolResult") expect(callIds.has(m.toolCallId)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("kept tokens follow the rule: the keep is reached just before the cut, never after it", () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 60 }), keepArb, (actions, keep) => {
        const path = buildPath(actions);
        const r = planCompaction(path, { keepRecentTokens: keep, reserveTokens: 1000 });
        const plan = r.ok ? r.plan : r.plan;
        if (!plan) return;
        const keptFrom = (i: number) =>
          path
            .slice(i)
            .reduce(
              (s, e) =>
                s +
                (e.type === "message"
                  ? estimateMessageTokensPi((e as { message: AgentMessage }).message)
                  : 0),
              0,
            );
        expect(plan.keptMessageTokens).toBe(keptFrom(plan.firstKeptIndex));
        const cuts: number[] = [];
        for (let i = plan.windowStart; i < path.length; i++) if (isValidCutPoint(path[i]!)) cuts.push(i);
        const previous = cuts.filter((c) => c < plan.firstKeptIndex).at(-1);
        if (previous === undefined) return; // everything in the window is kept
        // The walk from the newest entry reached `keep` after the previous cut point...
        expect(keptFrom(previous + 1)).toBeGreaterThanOrEqual(keep);
        // ...and not after the first kept message (a later cut would keep less than `keep`).
        const m = path.findIndex((e, i) => i >= plan.firstKeptIndex && e.type === "message");
        if (keep > 0 && m >= 0) expect(keptFrom(m + 1)).toBeLessThan(keep);
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
          for (const id of ctx.entryIds) if (id !== prev) expect(covered.has(id)).toBe(true);
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
          const keptContext = before
            .slice(r.plan.firstKeptIndex)
            .filter((e) => entryMessage(e) !== undefined)
            .map((e) => e.id);
          expect(ctxAfter.entryIds).toEqual(["new", ...keptContext]);
        });
        expect(path.filter((e) => e.type === "compaction").length).toBeLessThanOrEqual(actions.length);
      }),
      { numRuns: 300 },
    );
  });
});
