// The sessions the conformance suite builds with pi 1.6's SessionManager: one per entry shape or rule (run by Node 22).
import {
  assistant,
  bash,
  customRoleMessage,
  filler,
  move,
  system,
  tool,
  toolResult,
  turn,
  usage,
  user,
} from "./session-builder.mjs";

const FIRST_SYSTEM = {
  content: "You are the conformance test agent.",
  sections: {
    tools: "<tools>\n- read\n- write\n- edit\n</tools>",
    cwd: "<cwd>/project</cwd>",
    style: "Answer briefly.",
  },
  toolsAdded: [tool("read"), tool("write"), tool("edit")],
};

/** name -> build(sm). Each scenario writes one session file; the comment says what it covers. */
export const SCENARIOS = {
  /** System messages: a full first one, patches (null removes a section, tools added/removed/redefined), usage entries, thinking level max, labels, session_info. */
  "system-prompts"(sm) {
    system(sm, FIRST_SYSTEM);
    sm.appendModelChange("openai", "gpt-x");
    sm.appendThinkingLevelChange("high");
    const u1 = user(sm, "Read a.ts please");
    const a1 = assistant(
      sm,
      [{ thinking: "I should read it" }, "Reading.", { call: ["c1", "read", { path: "a.ts" }] }],
      {
        total: 1250,
        thinkingLevel: "high",
      },
    );
    toolResult(sm, "c1", "read", "contents of a.ts");
    assistant(sm, ["Done reading."], { total: 1350, thinkingLevel: "high" });
    system(sm, {
      sections: { skills: "<skills>\n- deploy\n</skills>", cwd: null },
      toolsAdded: [tool("bash")],
      toolsRemoved: [{ name: "write" }],
    });
    sm.appendUsage("cache_warm", "openai", "gpt-x", usage(900, 900), "warm-up");
    sm.appendThinkingLevelChange("max");
    system(sm, {
      content: "Never delete files.",
      sections: { style: "Answer in detail." },
      toolsAdded: [tool("read", "The read tool, second version.")],
    });
    sm.appendLabelChange(u1, "start");
    sm.appendLabelChange(a1, "checkpoint");
    user(sm, "Now run the tests");
    assistant(sm, [{ thinking: "max effort" }, "Tests pass."], { total: 1500, thinkingLevel: "max" });
    sm.appendSessionInfo("System prompt demo");
    sm.appendLabelChange(a1, undefined);
    sm.appendUsage("cache_warm", "openai", "gpt-x", usage(400, 400));
    sm.appendSessionInfo("  Renamed\nsession  ");
  },

  /** A session whose first system message comes after some turns (sessions older than system messages). */
  "system-late"(sm) {
    turn(sm, "early", { total: 600 });
    system(sm, {
      content: "Late prompt.",
      sections: { cwd: "<cwd>/late</cwd>" },
      toolsAdded: [tool("read")],
    });
    turn(sm, "later", { total: 900 });
    system(sm, { sections: { cwd: null }, toolsRemoved: [{ name: "read" }] });
    user(sm, "No tools any more?");
  },

  /** Compactions carrying systemMessage and usage; a system patch inside the kept range; a patch after the compaction. */
  "compaction-system-usage"(sm) {
    system(sm, FIRST_SYSTEM);
    turn(sm, "t1", { question: 2000, answer: 4000, total: 2500 });
    const [u2] = turn(sm, "t2", { question: 2000, answer: 4000, total: 4200 });
    system(sm, { sections: { mode: "<mode>review</mode>" } });
    turn(sm, "t3", { question: 1200, answer: 3000, total: 5400 });
    sm.appendCompaction(
      "## Goal\nSummary one of t1.",
      u2,
      5400,
      { readFiles: ["a.ts"], modifiedFiles: ["b.ts"] },
      false,
      usage(700),
    );
    system(sm, { sections: { style: null, mode: "<mode>write</mode>" }, toolsRemoved: [{ name: "edit" }] });
    turn(sm, "t4", { question: 1600, answer: 2400, total: 3100 });
    turn(sm, "t5", { question: 800, answer: 1200, total: 3600 });
    user(sm, `t6 question without reply: ${filler("t6q", 1500)}`);
  },

  /** Two compactions where the older lies inside the newer's kept range (older adds nothing). */
  "nested-compactions"(sm) {
    system(sm, FIRST_SYSTEM);
    turn(sm, "n1", { question: 1500, answer: 3000, total: 1400 });
    turn(sm, "n2", { question: 1500, answer: 3000, total: 2600 });
    const [u3] = turn(sm, "n3", { question: 1500, answer: 3000, total: 3800 });
    const [u4] = turn(sm, "n4", { question: 1500, answer: 3000, total: 5000 });
    sm.appendCompaction("Summary A (n1, n2).", u3, 5000, { readFiles: ["old-a.ts"], modifiedFiles: [] });
    turn(sm, "n5", { question: 1500, answer: 3000, total: 4100 });
    turn(sm, "n6", { question: 1500, answer: 3000, total: 5300 });
    sm.appendCompaction("Summary B (n1..n3).", u4, 5300, {
      readFiles: ["old-b.ts"],
      modifiedFiles: ["mod-b.ts"],
    });
    turn(sm, "n7", { question: 1500, answer: 3000, total: 4400 });
    turn(sm, "n8", { question: 600, answer: 900, total: 4900 });
  },

  /** Retain-none compactions (firstKeptEntryId = own id), one of them the last entry for a while. */
  "retain-none"(sm) {
    system(sm, FIRST_SYSTEM);
    turn(sm, "r1", { question: 3000, answer: 5000, total: 2300 });
    turn(sm, "r2", { question: 3000, answer: 5000, total: 4400 });
    sm.appendCompaction(
      "Everything so far, nothing kept.",
      undefined,
      4400,
      { readFiles: [], modifiedFiles: [] },
      false,
      usage(500),
    );
    turn(sm, "r3", { question: 2000, answer: 3000, total: 1900 });
    sm.appendThinkingLevelChange("low");
    turn(sm, "r4", { question: 2000, answer: 3000, total: 3200 });
    sm.appendCompaction("Second retain-none.", undefined, 3200);
    user(sm, "After two retain-none compactions.");
    assistant(sm, ["Still here."], { total: 600 });
  },

  /** A compaction whose firstKeptEntryId is on no path (kept range is empty). */
  "compaction-missing-kept"(sm) {
    system(sm, FIRST_SYSTEM);
    turn(sm, "m1", { question: 2000, answer: 3000, total: 1500 });
    turn(sm, "m2", { question: 2000, answer: 3000, total: 2900 });
    sm.appendCompaction("Kept id points nowhere.", "deadbeef", 2900);
    turn(sm, "m3", { question: 1000, answer: 2000, total: 1200 });
  },

  /** context_edit: omit, replace with a string and with blocks, several edits on one target, edits before and after usage. */
  "context-edits"(sm) {
    system(sm, FIRST_SYSTEM);
    const q1 = user(sm, `First question ${filler("q1", 1600)}`);
    const a1 = assistant(sm, [`First answer ${filler("a1", 1200)}`], { total: 1500 });
    const q2 = user(sm, "Second question, original wording");
    const a2 = assistant(sm, ["Let me read.", { call: ["c2", "read", { path: "b.ts" }] }], { total: 1700 });
    const r2 = toolResult(sm, "c2", "read", `b.ts ${filler("b", 6000)}`);
    const a3 = assistant(sm, ["Second answer."], { total: 3300 });
    const note = sm.appendCustomMessageEntry("note", "Reminder: keep tests green.", true, { source: "ext" });
    sm.appendContextEdit(q1, null);
    sm.appendContextEdit(q2, { content: "Second question, EDITED wording" });
    sm.appendContextEdit(a2, { content: "Read it (edited)." });
    sm.appendContextEdit(r2, { content: [{ type: "text", text: "b.ts (elided)" }] });
    sm.appendContextEdit(note, { content: [{ type: "text", text: "Reminder (edited)." }] });
    sm.appendContextEdit(a3, { content: "first edit" });
    sm.appendContextEdit(a3, null);
    sm.appendContextEdit(a3, { content: "third edit wins" });
    user(sm, "Third question");
    assistant(sm, ["Third answer."], { total: 1900 });
    sm.appendContextEdit(a1, { content: "First answer, shortened." });
    user(sm, `Fourth question ${filler("q4", 800)}`);
  },

  /** An overflowing attempt omitted by context_edit at the end (pi's recovery-omission suffix rule), then one with a replacement. */
  "recovery-omission"(sm) {
    system(sm, FIRST_SYSTEM);
    turn(sm, "o1", { question: 3000, answer: 5000, total: 2400 });
    user(sm, `o2 long question ${filler("o2", 6000)}`);
    const failed = assistant(sm, [], { stopReason: "error", errorMessage: "prompt is too long" });
    sm.appendContextEdit(failed, null);
    const retry = assistant(sm, ["Partial answer."], { stopReason: "length", total: 5200 });
    sm.appendContextEdit(retry, null);
    const o1Answer = sm.getBranch().find((e) => e.type === "message" && e.message.role === "assistant");
    sm.appendContextEdit(o1Answer.id, { content: "o1 answer, shortened." });
  },

  /** File operations: read/write/edit tool calls, nestedCalls on a tool result, previous compaction details, fromHook details, images, bash, custom messages. */
  "tool-files"(sm) {
    system(sm, FIRST_SYSTEM);
    sm.appendMessage({
      role: "user",
      content: [
        { type: "text", text: "Look at this screenshot and fix x.ts" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      ],
      timestamp: Date.now(),
    });
    assistant(
      sm,
      [
        { call: ["c1", "read", { path: "x.ts" }] },
        { call: ["c2", "write", { path: "y.ts", content: filler("y", 1500) }] },
        { call: ["c3", "read", { path: 42 }] },
        { call: ["c4", "grep", { path: "z.ts" }] },
      ],
      { total: 2400 },
    );
    toolResult(sm, "c1", "read", `x.ts ${filler("x", 3000)}`);
    toolResult(sm, "c2", "write", "written");
    toolResult(sm, "c3", "read", "bad path", { isError: true });
    toolResult(sm, "c4", "grep", "no matches");
    assistant(sm, [{ call: ["c5", "codemode", { script: "run()" }] }], { total: 4300 });
    toolResult(sm, "c5", "codemode", `script output ${filler("cm", 2500)}`, {
      nestedCalls: [
        { id: "n1", name: "read", arguments: { path: "n-read.ts" }, status: "ok" },
        { id: "n2", name: "edit", arguments: { path: "n-edit.ts" }, status: "ok" },
        { id: "n3", name: "write", arguments: { path: "x.ts" }, status: "ok" },
      ],
    });
    bash(sm, "npm test", `ok ${filler("bash", 2000)}`);
    bash(sm, "npm run lint", "2 problems", { exitCode: 1, truncated: true, fullOutputPath: "/tmp/lint.log" });
    bash(sm, "ls", "secret listing", { excludeFromContext: true });
    sm.appendCustomMessageEntry(
      "reminder",
      [{ type: "text", text: `Turn-start custom message ${filler("cmsg", 1500)}` }],
      true,
    );
    assistant(sm, [{ call: ["c6", "edit", { path: "w.ts" }] }], { total: 6800 });
    toolResult(sm, "c6", "edit", "edited");
    customRoleMessage(sm, "ext-note", `A message entry with role custom ${filler("cr", 1200)}`);
    const kept = user(sm, `Continue ${filler("cont", 1800)}`);
    assistant(sm, ["Continuing.", { call: ["c7", "read", { path: "k.ts" }] }], { total: 7900 });
    toolResult(sm, "c7", "read", `k.ts ${filler("k", 2000)}`);
    sm.appendCompaction("Summary with file lists.", kept, 7900, {
      readFiles: ["old-read.ts"],
      modifiedFiles: ["old-mod.ts"],
    });
    assistant(sm, [{ call: ["c8", "write", { path: "old-read.ts" }] }], { total: 3300 });
    toolResult(sm, "c8", "write", "written");
    turn(sm, "tf", { question: 2500, answer: 3500, total: 5100 });
    sm.appendCompaction(
      "Hook summary.",
      undefined,
      5100,
      { readFiles: ["hook.ts"], modifiedFiles: ["hook-mod.ts"] },
      true,
    );
    user(sm, `After the hook compaction ${filler("ah", 1500)}`);
    assistant(sm, [{ call: ["c9", "read", { path: "after.ts" }] }], { total: 1800 });
    toolResult(sm, "c9", "read", `after.ts ${filler("af", 2500)}`);
  },

  /** Branch summaries via branchWithSummary (fromId = old leaf), an empty one, one to a new root; labels across branches. */
  "branch-summaries"(sm) {
    system(sm, FIRST_SYSTEM);
    const [u1, a1] = turn(sm, "b1", { question: 1000, answer: 2000, total: 900 });
    turn(sm, "b2", { question: 1000, answer: 2000, total: 1800 });
    const [, a3] = turn(sm, "b3", { question: 1000, answer: 2000, total: 2700 });
    sm.appendLabelChange(a3, "old-end");
    sm.branchWithSummary(a1, `The abandoned branch tried b2 and b3. ${filler("bs", 1200)}`, {
      readFiles: ["branch-read.ts"],
      modifiedFiles: ["branch-mod.ts"],
    });
    const [u4] = turn(sm, "b4", { question: 1500, answer: 2500, total: 2200 });
    sm.branchWithSummary(u4, "");
    turn(sm, "b5", { question: 800, answer: 1200, total: 2600 });
    sm.appendLabelChange(u1, "first");
    sm.branchWithSummary(null, "Summary of everything before, branching to a new root.");
    turn(sm, "b6", { question: 1200, answer: 1500, total: 700 });
  },

  /** Cutpoint's moves: branch + a cutpoint.move custom entry; a message after a move; Undo back before a compaction; a move before the first entry. */
  moves(sm) {
    system(sm, FIRST_SYSTEM);
    const [, a1] = turn(sm, "v1", { question: 1500, answer: 2500, total: 1100 });
    turn(sm, "v2", { question: 1500, answer: 2500, total: 2200 });
    const [, a3] = turn(sm, "v3", { question: 1500, answer: 2500, total: 3300 });
    move(sm, a1);
    const [u4] = turn(sm, "v4", { question: 1500, answer: 2500, total: 2300 });
    const [, a5] = turn(sm, "v5", { question: 1500, answer: 2500, total: 3400 });
    sm.appendCompaction("Summary of v1 and the move.", u4, 3400);
    turn(sm, "v6", { question: 1500, answer: 2500, total: 1900 });
    move(sm, a5);
    user(sm, "A message after the undo move");
    move(sm, null);
    turn(sm, "v7", { question: 600, answer: 800, total: 500 });
    move(sm, a3);
  },

  /** Context edits inside a compaction's kept range, edits before it, a string edit of a custom message, a kept id on another branch. */
  "context-edits-compacted"(sm) {
    system(sm, FIRST_SYSTEM);
    const [q1] = turn(sm, "e1", { question: 2000, answer: 3000, total: 1400 });
    sm.appendContextEdit(q1, { content: "e1 question, shortened before the compaction" });
    const [q2, a2] = turn(sm, "e2", { question: 2000, answer: 3000, total: 2600 });
    const note = sm.appendCustomMessageEntry("note", `A note ${filler("note", 900)}`, true);
    sm.appendContextEdit(note, { content: "note as a string" });
    sm.appendContextEdit(a2, { content: "e2 answer, shortened" });
    const [q3] = turn(sm, "e3", { question: 2000, answer: 3000, total: 2300 });
    sm.appendContextEdit(q2, null);
    sm.appendCompaction("Summary before e3.", q3, 2300);
    turn(sm, "e4", { question: 1500, answer: 2500, total: 2000 });
    sm.appendContextEdit(q3, {
      content: [{ type: "text", text: "e3 question, edited after the compaction" }],
    });
    const [, a5] = turn(sm, "e5", { question: 1500, answer: 2500, total: 2900 });
    sm.branch(a2);
    const other = user(sm, "A question on another branch");
    sm.branch(a5);
    sm.appendCompaction("Kept id on another branch.", other, 2900);
    turn(sm, "e6", { question: 500, answer: 700, total: 800 });
  },

  /** Odd but valid messages: string user content, images in tool results, usage without totalTokens or absent, summary-role messages stored as messages, label and name cleared with "". */
  "edge-messages"(sm) {
    system(sm, FIRST_SYSTEM);
    const u1 = sm.appendMessage({
      role: "user",
      content: `A plain string question ${filler("str", 800)}`,
      timestamp: Date.now(),
    });
    const a1 = sm.appendMessage({
      role: "assistant",
      content: [{ type: "text", text: `Usage without a total ${filler("nt", 1200)}` }],
      api: "openai-completions",
      provider: "openai",
      model: "gpt-x",
      usage: { ...usage(0), input: 900, output: 300 },
      stopReason: "stop",
      timestamp: Date.now(),
    });
    sm.appendLabelChange(u1, "question");
    sm.appendLabelChange(a1, "answer");
    sm.appendSessionInfo("Edge cases");
    assistant(sm, [{ call: ["i1", "screenshot", { path: "page.png" }] }], { total: 1700 });
    sm.appendMessage({
      role: "toolResult",
      toolCallId: "i1",
      toolName: "screenshot",
      content: [
        { type: "text", text: "the page" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      ],
      isError: false,
      timestamp: Date.now(),
    });
    sm.appendMessage({
      role: "assistant",
      content: [{ type: "text", text: `No usage at all ${filler("nu", 900)}` }],
      api: "openai-completions",
      provider: "openai",
      model: "gpt-x",
      stopReason: "stop",
      timestamp: Date.now(),
    });
    sm.appendMessage({
      role: "compactionSummary",
      summary: `A stored compaction summary ${filler("cs", 1500)}`,
      tokensBefore: 4000,
      timestamp: Date.now(),
    });
    sm.appendMessage({
      role: "branchSummary",
      summary: `A stored branch summary ${filler("bs", 1500)}`,
      fromId: "root",
      timestamp: Date.now(),
    });
    assistant(sm, ["After the stored summaries."], { total: 2600 });
    sm.appendLabelChange(a1, "");
    turn(sm, "edge", { question: 1800, answer: 2200, total: 3300 });
    sm.appendSessionInfo("");
  },

  /** Compactions whose firstKeptEntryId is a system message, a label, a context_edit and a settings entry. */
  "odd-kept-ids"(sm) {
    system(sm, FIRST_SYSTEM);
    turn(sm, "k1", { question: 1500, answer: 2500, total: 1100 });
    const patch = system(sm, { sections: { mode: "<mode>fast</mode>" } });
    const [q2] = turn(sm, "k2", { question: 1500, answer: 2500, total: 2200 });
    sm.appendCompaction("Kept range starts at a system message.", patch, 2200);
    const label = sm.appendLabelChange(q2, "k2");
    turn(sm, "k3", { question: 1500, answer: 2500, total: 1900 });
    sm.appendCompaction("Kept range starts at a label.", label, 1900);
    const [, a4] = turn(sm, "k4", { question: 1500, answer: 2500, total: 2000 });
    const edit = sm.appendContextEdit(a4, { content: "k4 answer, edited" });
    turn(sm, "k5", { question: 1500, answer: 2500, total: 2400 });
    sm.appendCompaction("Kept range starts at a context edit.", edit, 2400);
    const setting = sm.appendThinkingLevelChange("xhigh");
    turn(sm, "k6", { question: 1500, answer: 2500, total: 2100 });
    sm.appendCompaction("Kept range starts at a settings entry.", setting, 2100);
    turn(sm, "k7", { question: 700, answer: 900, total: 900 });
  },

  /** Trailing tool results larger than keep-recent (the cut keeps their assistant call). */
  "trailing-tool-results"(sm) {
    system(sm, FIRST_SYSTEM);
    turn(sm, "tr1", { question: 2000, answer: 3000, total: 1400 });
    user(sm, "Read the three big files");
    assistant(
      sm,
      [
        { call: ["t1", "read", { path: "big1.ts" }] },
        { call: ["t2", "read", { path: "big2.ts" }] },
        { call: ["t3", "read", { path: "big3.ts" }] },
      ],
      { total: 1600 },
    );
    toolResult(sm, "t1", "read", filler("big1", 30000));
    toolResult(sm, "t2", "read", filler("big2", 30000));
    toolResult(sm, "t3", "read", filler("big3", 90000));
  },

  /** A long single turn (the cut splits it) and a settings entry just before a user message. */
  "split-turn"(sm) {
    system(sm, FIRST_SYSTEM);
    turn(sm, "s0", { question: 1500, answer: 3000, total: 1200 });
    sm.appendModelChange("openai", "gpt-y");
    user(sm, `Do the big task ${filler("task", 1000)}`);
    for (let i = 1; i <= 8; i++) {
      assistant(sm, [`Step ${i}.`, { call: [`s${i}`, i % 2 ? "read" : "edit", { path: `step${i}.ts` }] }], {
        total: 1200 + i * 1500,
        model: "gpt-y",
      });
      toolResult(sm, `s${i}`, i % 2 ? "read" : "edit", filler(`step${i}`, 12000));
    }
    assistant(sm, ["All steps done."], { total: 14000, model: "gpt-y" });
    sm.appendThinkingLevelChange("medium");
    user(sm, "Thanks");
    assistant(sm, ["You are welcome."], { total: 14100, model: "gpt-y", stopReason: "aborted" });
  },
};
