// Session files pi 1.6 has no writer for (legacy versions, damaged copies of pi-written files), written as text by our script.
import { filler } from "./session-builder.mjs";

const at = (second) => new Date(Date.UTC(2026, 11, 1, 8, 0, second)).toISOString();
const ms = (second) => Date.UTC(2026, 11, 1, 8, 0, second);
const text = (value) => [{ type: "text", text: value }];

function assistantMessage(second, value, total) {
  return {
    role: "assistant",
    content: text(value),
    api: "openai-completions",
    provider: "openai",
    model: "gpt-old",
    usage: {
      input: total - 50,
      output: 50,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: total,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "stop",
    timestamp: ms(second),
  };
}

const lines = (objects) => `${objects.map((object) => JSON.stringify(object)).join("\n")}\n`;

/** A v1 file (no ids): compactions whose firstKeptEntryIndex points at an entry, at the header, and past the end. */
function legacyV1() {
  const out = [{ type: "session", id: "legacy-v1-session", timestamp: at(0), cwd: "/project" }];
  let second = 1;
  const turn = (tag, total) => {
    out.push({
      type: "message",
      timestamp: at(second),
      message: { role: "user", content: text(`${tag} ${filler(tag, 1600)}`), timestamp: ms(second++) },
    });
    out.push({
      type: "message",
      timestamp: at(second),
      message: assistantMessage(second++, `${tag} answer ${filler(`${tag}a`, 2400)}`, total),
    });
  };
  out.push({ type: "thinking_level_change", timestamp: at(second++), thinkingLevel: "medium" });
  turn("v1a", 1200);
  turn("v1b", 2300);
  out.push({
    type: "compaction",
    timestamp: at(second++),
    summary: "v1 summary keeping v1b.",
    firstKeptEntryIndex: 4,
    tokensBefore: 2300,
  });
  turn("v1c", 1900);
  out.push({
    type: "compaction",
    timestamp: at(second++),
    summary: "v1 summary pointing at the header.",
    firstKeptEntryIndex: 0,
    tokensBefore: 1900,
  });
  turn("v1d", 1500);
  out.push({ type: "model_change", timestamp: at(second++), provider: "openai", modelId: "gpt-new" });
  turn("v1e", 2100);
  out.push({
    type: "compaction",
    timestamp: at(second++),
    summary: "v1 summary pointing past the end.",
    firstKeptEntryIndex: 999,
    tokensBefore: 2100,
  });
  turn("v1f", 800);
  return lines(out);
}

/** A v2 file: ids and parents, a hookMessage (becomes role custom in v3), a branch. */
function legacyV2() {
  const out = [{ type: "session", version: 2, id: "legacy-v2-session", timestamp: at(0), cwd: "/project" }];
  let second = 1;
  let parent = null;
  const push = (id, entry) => {
    out.push({ ...entry, id, parentId: parent, timestamp: at(second) });
    parent = id;
    second++;
  };
  push("a0000001", {
    type: "message",
    message: { role: "user", content: text(`v2 question ${filler("v2q", 1500)}`), timestamp: ms(second) },
  });
  push("a0000002", {
    type: "message",
    message: assistantMessage(second, `v2 answer ${filler("v2a", 2500)}`, 1300),
  });
  push("a0000003", {
    type: "message",
    message: {
      role: "hookMessage",
      customType: "hook",
      content: `hook said ${filler("hook", 900)}`,
      display: true,
      timestamp: ms(second),
    },
  });
  push("a0000004", {
    type: "message",
    message: assistantMessage(second, `after the hook ${filler("ah", 1500)}`, 2100),
  });
  parent = "a0000002";
  push("a0000005", {
    type: "message",
    message: { role: "user", content: text("a question on a branch"), timestamp: ms(second) },
  });
  push("a0000006", {
    type: "message",
    message: assistantMessage(second, `branch answer ${filler("ba", 1200)}`, 1700),
  });
  return lines(out);
}

/** Copies of pi-written sessions as other tools leave them: CRLF line ends; blank and malformed lines; a lost line (orphans); a crash-cut last line. */
export const DERIVED = {
  "damaged-crlf": ["moves", (source) => source.replace(/\n/g, "\r\n")],
  "damaged-blank-and-bad-lines": [
    "branch-summaries",
    (source) => {
      const rows = source.split("\n");
      rows.splice(6, 0, "", "   ", "{not json at all");
      rows.splice(14, 0, '{"type":"message","id":"broken"');
      return rows.join("\n");
    },
  ],
  "damaged-missing-line": [
    "context-edits-compacted",
    (source) => {
      const rows = source.split("\n");
      rows.splice(5, 1);
      return rows.join("\n");
    },
  ],
  "damaged-truncated": ["tool-files", (source) => source.slice(0, source.trimEnd().lastIndexOf("\n") + 120)],
};

export const RAW = { "legacy-v1": legacyV1, "legacy-v2": legacyV2 };
