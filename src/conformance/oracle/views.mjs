// pi 1.6's view of a loaded session at a given leaf: path, context, tokens, system replay, compaction plans, appends (run by Node 22).
import { ai, compaction, messages as piMessages, sessionManager } from "./pi-modules.mjs";

export const RESERVE_TOKENS = 16384;

/** One loaded session: pi's SessionManager plus the 1-based physical line of each entry. */
export function loadedSession(sm, physicalLines) {
  const lineOf = new Map();
  sm.fileEntries.forEach((entry, index) => {
    if (entry.type !== "session" && !lineOf.has(entry.id)) lineOf.set(entry.id, physicalLines[index]);
  });
  return { sm, lineOf, line: (id) => (id == null ? null : (lineOf.get(id) ?? null)) };
}

/** The 1-based physical lines pi parses as JSON objects (blank and malformed lines are skipped, as pi does). */
export function parsedLineNumbers(text) {
  const out = [];
  text.split("\n").forEach((line, index) => {
    if (!line.trim()) return;
    try {
      JSON.parse(line);
      out.push(index + 1);
    } catch {
      // pi skips it too
    }
  });
  return out;
}

/** What the reference calls an entry's type: the role for a message entry, else the entry type. */
export function entryKind(entry) {
  return entry.type === "message" ? entry.message?.role : entry.type;
}

function excerpt(message) {
  let text = "";
  const content = message.content;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    text = content
      .map(
        (block) =>
          block.text ?? block.thinking ?? (block.type === "toolCall" ? `${block.name}()` : `[${block.type}]`),
      )
      .join(" ");
  }
  if (message.role === "bashExecution") text = `$ ${message.command}`;
  if (message.role === "compactionSummary" || message.role === "branchSummary") text = message.summary;
  text = text.replace(/\s+/g, " ").trim();
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function systemView(message) {
  if (!message) return null;
  const view = {
    content: typeof message.content === "string" ? message.content : ai.contentText(message.content),
    sections: message.sections ?? {},
    tools: (message.toolsAdded ?? []).map((declaration) => declaration.name),
  };
  return view;
}

function planView(loaded, branch, projection, keep) {
  const preparation = compaction.prepareCompaction(branch, {
    enabled: true,
    reserveTokens: RESERVE_TOKENS,
    keepRecentTokens: keep,
  });
  if (!preparation) return { keep, compact: false };
  // prepareCompaction's messages are, in order, the non-system messages of the projected
  // entries after the previous compaction: the summarized ones first, then the turn prefix.
  const flat = [];
  projection.entries.forEach((projected, index) => {
    if (projected.sourceEntry.type === "compaction") return;
    for (const message of projected.messages) {
      if (message.role !== "system") flat.push({ message, entryId: projected.sourceEntry.id, index });
    }
  });
  const summarized = flat.slice(0, preparation.messagesToSummarize.length);
  const prefix = flat.slice(summarized.length, summarized.length + preparation.turnPrefixMessages.length);
  const roles = (list) => list.map((m) => m.role).join(",");
  if (
    roles(summarized.map((item) => item.message)) !== roles(preparation.messagesToSummarize) ||
    roles(prefix.map((item) => item.message)) !== roles(preparation.turnPrefixMessages)
  ) {
    throw new Error("generator: could not place prepareCompaction's messages on the projection");
  }
  const firstKept = loaded.sm.getEntry(preparation.firstKeptEntryId);
  const files = compaction.computeFileLists(preparation.fileOps);
  return {
    keep,
    compact: true,
    firstKeptEntryId: preparation.firstKeptEntryId,
    firstKeptLine: loaded.line(preparation.firstKeptEntryId),
    firstKeptType: firstKept ? entryKind(firstKept) : null,
    isSplitTurn: preparation.isSplitTurn,
    tokensBefore: preparation.tokensBefore,
    messagesToSummarize: preparation.messagesToSummarize.length,
    turnPrefixMessages: preparation.turnPrefixMessages.length,
    previousSummary: preparation.previousSummary !== undefined,
    readFiles: files.readFiles,
    modifiedFiles: files.modifiedFiles,
    summarizedRoles: roles(preparation.messagesToSummarize),
    prefixRoles: roles(preparation.turnPrefixMessages),
    summarizedLines: summarized.map((item) => loaded.line(item.entryId)),
    prefixLines: prefix.map((item) => loaded.line(item.entryId)),
  };
}

/**
 * pi's view with the leaf at `leafId`. `detail`: "full" (messages with excerpts, system replay,
 * plans with line lists) or "brief" (no message list; plans without roles and line lists).
 */
export function viewAt(loaded, leafId, keeps, detail = "full") {
  const { sm } = loaded;
  const leaf = sm.getEntry(leafId);
  const branch = sm.getBranch(leafId);
  const projection = sessionManager.buildSessionProjection(sm.getEntries(), leafId, sm.byId);
  const estimate = compaction.estimateProjectedContextTokens(projection, branch);
  const view = {
    leafId,
    leafLine: loaded.line(leafId),
    leafType: leaf ? leaf.type : null,
    pathLength: branch.length,
    model: projection.model,
    thinkingLevel: projection.thinkingLevel,
    contextTokens: estimate.tokens,
    usageIndex: estimate.lastUsageIndex,
  };
  if (detail === "full") {
    const llm = piMessages.convertToLlm(projection.messages);
    view.llmRoles = llm.map((message) => message.role).join(",");
    // What pi sends to a model without mid-conversation system messages (its openai-completions
    // default): the replay first, the other messages after it.
    view.requestRoles = ai
      .collapseSystemMessages({ messages: llm })
      .messages.map((message) => message.role)
      .join(",");
    view.messages = projection.entries.flatMap((projected) =>
      projected.messages.map((message) => ({
        role: message.role,
        entryId: projected.sourceEntry.id,
        line: loaded.line(projected.sourceEntry.id),
        tokens: compaction.estimateTokens(message),
        excerpt: excerpt(message),
      })),
    );
    view.system = systemView(ai.getCurrentSystemMessage(projection.messages));
  }
  view.plans = keeps.map((keep) => {
    const plan = planView(loaded, branch, projection, keep);
    if (detail !== "full") {
      delete plan.summarizedRoles;
      delete plan.prefixRoles;
      delete plan.summarizedLines;
      delete plan.prefixLines;
    }
    return plan;
  });
  return view;
}

/** What pi appends at `leafId`: the parentId of the next message and the systemMessage of a compaction appended there. */
export function appendsAt(loaded, leafId) {
  const probe = sessionManager.SessionManager.inMemory("/project", undefined, [...loaded.sm.fileEntries]);
  const moveTo = () => (leafId === null ? probe.resetLeaf() : probe.branch(leafId));
  moveTo();
  const compactionId = probe.appendCompaction("conformance probe", undefined, 0);
  const compactionEntry = probe.getEntry(compactionId);
  moveTo();
  const messageId = probe.appendMessage({
    role: "user",
    content: [{ type: "text", text: "probe" }],
    timestamp: 0,
  });
  const nextParentId = probe.getEntry(messageId).parentId;
  return {
    nextParentId,
    nextParentLine: loaded.line(nextParentId),
    compactionSystemMessage: systemView(compactionEntry.systemMessage),
  };
}
