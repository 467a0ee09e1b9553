/**
 * Branch summaries: the entries a move leaves behind and the new leaf, what fits the budget (summaries
 * up to 90%), the request and preamble, the empty summary, errors, and the entry written.
 */
import { describe, expect, it } from "vitest";
import { buildTreeIndex } from "../session/tree.ts";
import type { SessionEntry } from "../session/types.ts";
import { emptyUsage } from "../session/usage.ts";
import {
  branchEntries,
  branchNewLeaf,
  buildBranchSummaryEntry,
  generateBranchSummary,
  prepareBranchSummary,
} from "./branch.ts";
import { BRANCH_SUMMARY_INSTRUCTIONS, BRANCH_SUMMARY_PREAMBLE, EMPTY_BRANCH_SUMMARY } from "./prompts.ts";
import type { CompleteFn, CompleteRequest } from "./summarize.ts";

const TS = "2026-01-01T00:00:00.000Z";
const e = (id: string, parentId: string | null, fields: Record<string, unknown>) =>
  ({ id, parentId, timestamp: TS, ...fields }) as SessionEntry;
const user = (id: string, parentId: string | null, text: string) =>
  e(id, parentId, { type: "message", message: { role: "user", content: text, timestamp: 0 } });
const assistant = (id: string, parentId: string | null, text: string, calls: [string, string][] = []) =>
  e(id, parentId, {
    type: "message",
    message: {
      role: "assistant",
      content: [
        { type: "text", text },
        ...calls.map(([name, path], k) => ({
          type: "toolCall",
          id: `${id}-${k}`,
          name,
          arguments: { path },
        })),
      ],
      stopReason: calls.length ? "toolUse" : "stop",
      timestamp: 0,
    },
  });
const result = (id: string, parentId: string, text: string) =>
  e(id, parentId, {
    type: "message",
    message: {
      role: "toolResult",
      toolCallId: "c",
      toolName: "read",
      content: [{ type: "text", text }],
      isError: false,
      timestamp: 0,
    },
  });

//  u1 ─ a1 ─ u2 ─ a2 ─ t2 ─ a3   (old leaf)
//         └─ u3 ─ a4              (target branch)
const tree = [
  user("u1", null, "start"),
  assistant("a1", "u1", "ok"),
  user("u2", "a1", "try plan A"),
  assistant("a2", "u2", "reading", [
    ["read", "/src/a.ts"],
    ["edit", "/src/b.ts"],
  ]),
  result("t2", "a2", "file body"),
  assistant("a3", "t2", "plan A failed"),
  user("u3", "a1", "try plan B"),
  assistant("a4", "u3", "plan B"),
];
const byId = buildTreeIndex(tree).byId;

describe("branch moves", () => {
  it("finds the common ancestor and the entries left behind, oldest first", () => {
    const move = branchEntries(byId, "a3", "a4");
    expect(move.commonAncestorId).toBe("a1");
    expect(move.entries.map((x) => x.id)).toEqual(["u2", "a2", "t2", "a3"]);
    expect(branchEntries(byId, "a3", null)).toMatchObject({ commonAncestorId: null });
    expect(branchEntries(byId, "a3", null).entries).toHaveLength(6);
    expect(branchEntries(byId, "a3", "a2").entries.map((x) => x.id)).toEqual(["t2", "a3"]);
  });

  it("new leaf: a user message or custom_message target moves to its parent with its text", () => {
    expect(branchNewLeaf(byId.get("u3")!)).toEqual({ leafId: "a1", editorText: "try plan B" });
    expect(branchNewLeaf(byId.get("u1")!)).toEqual({ leafId: null, editorText: "start" });
    expect(branchNewLeaf(byId.get("a4")!)).toEqual({ leafId: "a4" });
    expect(
      branchNewLeaf(
        e("cm", "a1", { type: "custom_message", customType: "x", content: "note", display: true }),
      ),
    ).toEqual({
      leafId: "a1",
      editorText: "note",
    });
    expect(branchNewLeaf(null)).toEqual({ leafId: null });
  });
});

describe("prepareBranchSummary", () => {
  it("skips tool results and collects files from the selected tool calls", () => {
    const prep = prepareBranchSummary(branchEntries(byId, "a3", "a4").entries, { reserveTokens: 16384 });
    expect(prep.entryIds).toEqual(["u2", "a2", "a3"]);
    expect(prep.budget).toBe(128000 - 16384);
    expect(prep.fileOps).toEqual({ readFiles: ["/src/a.ts"], modifiedFiles: ["/src/b.ts"] });
  });

  it("stops at the first message that does not fit the budget (newest kept)", () => {
    const entries = [
      user("x1", null, "a".repeat(400)), // 100 tokens
      assistant("x2", "x1", "b".repeat(400), [["read", "/old.ts"]]),
      user("x3", "x2", "c".repeat(200)), // 50 tokens
      assistant("x4", "x3", "d".repeat(200)),
    ];
    const prep = prepareBranchSummary(entries, { contextWindow: 1200, reserveTokens: 1000 });
    expect(prep.entryIds).toEqual(["x3", "x4"]);
    expect(prep.totalTokens).toBe(100);
    // Files from every message looked at: the one that no longer fits too (pi 1.6), not older ones.
    expect(prep.fileOps.readFiles).toEqual(["/old.ts"]);
  });

  it("still takes a summary that does not fit while under 90 % of the budget, then stops", () => {
    const summary = e("s", null, {
      type: "branch_summary",
      fromId: "root",
      summary: "s".repeat(800),
      details: { readFiles: ["/r.ts"], modifiedFiles: ["/m.ts"] },
    });
    const compaction = e("c", null, {
      type: "compaction",
      summary: "k".repeat(800),
      firstKeptEntryId: "x",
      tokensBefore: 1,
      details: { readFiles: ["/comp.ts"], modifiedFiles: [] },
    });
    const before = user("b", null, "z");
    const tail = user("t", "s", "t".repeat(400)); // 100 tokens
    // Budget 200: 100 used (50 %), summary of 200 does not fit but is taken, then stop.
    const a = prepareBranchSummary([before, summary, tail], { contextWindow: 1200, reserveTokens: 1000 });
    expect(a.entryIds).toEqual(["s", "t"]);
    expect(a.fileOps).toEqual({ readFiles: ["/r.ts"], modifiedFiles: ["/m.ts"] });
    const b = prepareBranchSummary([before, compaction, tail], { contextWindow: 1200, reserveTokens: 1000 });
    expect(b.entryIds).toEqual(["c", "t"]);
    expect(b.fileOps).toEqual({ readFiles: [], modifiedFiles: [] }); // compaction details are not used
    // Over 90 % used: the summary is not taken.
    const big = user("t", "s", "t".repeat(760)); // 190 tokens = 95 %
    expect(
      prepareBranchSummary([before, summary, big], { contextWindow: 1200, reserveTokens: 1000 }).entryIds,
    ).toEqual(["t"]);
    // A plain message that does not fit is never taken.
    const plain = user("p", null, "p".repeat(800));
    expect(
      prepareBranchSummary([before, plain, tail], { contextWindow: 1200, reserveTokens: 1000 }).entryIds,
    ).toEqual(["t"]);
  });

  it("ignores details of summaries made by an extension (fromHook)", () => {
    const hook = e("h", null, {
      type: "branch_summary",
      fromId: "root",
      summary: "s",
      fromHook: true,
      details: { readFiles: ["/h.ts"], modifiedFiles: [] },
    });
    expect(prepareBranchSummary([hook], { reserveTokens: 0 }).fileOps.readFiles).toEqual([]);
  });
});

describe("generateBranchSummary", () => {
  const calls: CompleteRequest[] = [];
  const complete: CompleteFn = async (r) => {
    calls.push(r);
    return { ok: true, text: " Tried plan A. ", usage: emptyUsage() };
  };

  it("sends the serialized branch and prefixes the preamble; budget 2048", async () => {
    const prep = prepareBranchSummary(branchEntries(byId, "a3", "a4").entries, { reserveTokens: 16384 });
    const out = await generateBranchSummary(prep, { complete, signal: new AbortController().signal });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.maxTokens).toBe(2048);
    expect(calls[0]!.userMessage).toContain("[User]: try plan A");
    expect(calls[0]!.userMessage).toContain(BRANCH_SUMMARY_INSTRUCTIONS);
    expect(calls[0]!.userMessage).not.toContain("file body");
    expect(out).toEqual({
      ok: true,
      summary: `${BRANCH_SUMMARY_PREAMBLE}\n\nTried plan A.\n\n<read-files>\n/src/a.ts\n</read-files>\n\n<modified-files>\n/src/b.ts\n</modified-files>`,
      details: { readFiles: ["/src/a.ts"], modifiedFiles: ["/src/b.ts"] },
      usage: emptyUsage(),
    });
  });

  it("stores a 'no content' summary without calling the model when nothing is selected", async () => {
    const before = calls.length;
    const out = await generateBranchSummary(prepareBranchSummary([], { reserveTokens: 0 }), {
      complete,
      signal: new AbortController().signal,
    });
    expect(calls.length).toBe(before);
    expect(out.ok && out.summary).toBe(`${BRANCH_SUMMARY_PREAMBLE}\n\n${EMPTY_BRANCH_SUMMARY}`);
  });

  it("errors and aborts produce no summary", async () => {
    const prep = prepareBranchSummary(branchEntries(byId, "a3", "a4").entries, { reserveTokens: 16384 });
    const failing: CompleteFn = async () => ({ ok: false, error: "500", aborted: false });
    expect(
      await generateBranchSummary(prep, { complete: failing, signal: new AbortController().signal }),
    ).toEqual({ ok: false, error: "500", aborted: false });
    const c = new AbortController();
    c.abort();
    expect(await generateBranchSummary(prep, { complete, signal: c.signal })).toMatchObject({
      ok: false,
      aborted: true,
    });
  });
});

describe("buildBranchSummaryEntry", () => {
  it("hangs under the new leaf with fromId = the leaf left behind, or root", () => {
    const a = buildBranchSummaryEntry({
      summary: "S",
      newLeafId: "a1",
      oldLeafId: "a9",
      id: "bs1",
      timestamp: TS,
      details: { readFiles: [], modifiedFiles: ["/b"] },
    });
    expect(a).toEqual({
      type: "branch_summary",
      id: "bs1",
      parentId: "a1",
      timestamp: TS,
      fromId: "a9",
      summary: "S",
      details: { readFiles: [], modifiedFiles: ["/b"] },
    });
    const b = buildBranchSummaryEntry({
      summary: "S",
      newLeafId: null,
      oldLeafId: null,
      id: "bs2",
      timestamp: TS,
    });
    expect(b).toMatchObject({ parentId: null, fromId: "root" });
  });
});
