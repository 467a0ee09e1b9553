/** Cutpoint's own view of a session, in the shape of a pi 1.6 reference row, computed with src/core only. */

import {
  buildCompactionEntry,
  createPlanner,
  estimateContextTokens,
  estimateMessageTokensPi,
  type Planner,
  type PlanResult,
  planCompaction,
  planFields,
} from "../core/compaction/index.ts";
import { contextTokensOf, indexPath } from "../core/compaction/plan.ts";
import {
  buildSessionContext,
  buildTreeIndex,
  currentSystemMessage,
  getPath,
  getSessionName,
  parseSessionJsonl,
  resolveLabels,
  resolveLeafId,
  type SessionContext,
  toLlmMessages,
} from "../core/session/index.ts";
import type { AgentMessage, SessionEntry, SystemMessage } from "../core/session/types.ts";
import type { AppendsView, LeafView, MessageView, PlanView, SystemView } from "./reference-types.ts";

/** A session parsed by Cutpoint, with the 1-based physical line of every entry. */
export interface CutpointSession {
  entries: SessionEntry[];
  byId: Map<string, SessionEntry>;
  lineOf: (id: string | null | undefined) => number | null;
  entryAtLine: (line: number) => SessionEntry | undefined;
}

export function loadCutpointSession(text: string): CutpointSession {
  const parsed = parseSessionJsonl(text);
  if (!parsed.ok) throw new Error(`Cutpoint cannot parse the session: ${parsed.error.message}`);
  const { entries, lines } = parsed.value;
  const byId = buildTreeIndex(entries).byId;
  const lineById = new Map<string, number>();
  const byLine = new Map<number, SessionEntry>();
  entries.forEach((entry, i) => {
    if (!lineById.has(entry.id)) lineById.set(entry.id, lines[i]!);
    byLine.set(lines[i]!, entry);
  });
  return {
    entries,
    byId,
    lineOf: (id) => (id == null ? null : (lineById.get(id) ?? null)),
    entryAtLine: (line) => byLine.get(line),
  };
}

function systemView(message: SystemMessage | undefined): SystemView | null {
  if (!message) return null;
  const content =
    typeof message.content === "string"
      ? message.content
      : message.content.map((block) => block.text).join("\n");
  const sections: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.sections ?? {}))
    if (value !== null) sections[name] = value;
  return { content, sections, tools: (message.toolsAdded ?? []).map((tool) => tool.name) };
}

/** What the reference calls an entry's type: the role for a message entry, else the entry type. */
export function entryKind(entry: SessionEntry | undefined): string | null {
  if (!entry) return null;
  if (entry.type === "message")
    return ((entry as { message?: { role?: string } }).message?.role ?? null) as string;
  return entry.type;
}

function planView(session: CutpointSession, keep: number, result: PlanResult): PlanView {
  if (!result.ok) return { keep, compact: false };
  const plan = result.plan;
  const roles = (messages: readonly AgentMessage[]) => messages.map((m) => m.role).join(",");
  return {
    keep,
    compact: true,
    firstKeptEntryId: plan.firstKeptEntryId,
    firstKeptLine: session.lineOf(plan.firstKeptEntryId),
    firstKeptType: entryKind(session.byId.get(plan.firstKeptEntryId)),
    isSplitTurn: plan.isSplitTurn,
    tokensBefore: plan.tokensBefore,
    messagesToSummarize: plan.messagesToSummarize.messages.length,
    turnPrefixMessages: plan.turnPrefixMessages.messages.length,
    previousSummary: plan.previousSummary !== undefined,
    readFiles: [...plan.fileOps.readFiles],
    modifiedFiles: [...plan.fileOps.modifiedFiles],
    summarizedRoles: roles(plan.messagesToSummarize.messages),
    prefixRoles: roles(plan.turnPrefixMessages.messages),
    summarizedLines: plan.messagesToSummarize.entryIds.map((id) => session.lineOf(id)),
    prefixLines: plan.turnPrefixMessages.entryIds.map((id) => session.lineOf(id)),
  };
}

function messagesView(session: CutpointSession, context: SessionContext): MessageView[] {
  return context.messages.map((message, i) => {
    const entryId = context.entryIds[i]!;
    return {
      role: message.role,
      entryId,
      line: session.lineOf(entryId),
      tokens: estimateMessageTokensPi(message),
    };
  });
}

/** Cutpoint's view with the leaf at `leafId` (null: before the first entry), for the given keep values. */
export function cutpointViewAt(
  session: CutpointSession,
  leafId: string | null,
  keeps: readonly number[],
  reserveTokens: number,
): LeafView {
  const path = getPath(session.byId, leafId);
  const context = buildSessionContext(path);
  const size = contextTokensOf(indexPath(path));
  const leaf = leafId === null ? undefined : session.byId.get(leafId);
  return {
    leafId,
    leafLine: session.lineOf(leafId),
    leafType: leaf?.type ?? null,
    pathLength: path.length,
    model: context.model ?? null,
    thinkingLevel: context.thinkingLevel,
    contextTokens: size.tokens,
    usageIndex: size.source === "reported" ? estimateContextTokens(context.messages).usageIndex : null,
    // Cutpoint sends the replay as the request's system prompt and toLlmMessages after it.
    requestRoles: [
      ...(context.systemMessage ? ["system"] : []),
      ...toLlmMessages(context.messages).map((m) => m.role),
    ].join(","),
    messages: messagesView(session, context),
    system: systemView(currentSystemMessage(context.messages)),
    plans: keeps.map((keep) =>
      planView(session, keep, planCompaction(path, { keepRecentTokens: keep, reserveTokens })),
    ),
  };
}

/** The incremental planner the UI uses, fed the paths in the order asked (it reuses shared prefixes). */
export function cutpointPlanner(): Planner {
  return createPlanner();
}

/** The incremental planner's context size and plans with the leaf at `leafId`. */
export function cutpointPlannerAt(
  planner: Planner,
  session: CutpointSession,
  leafId: string | null,
  keeps: readonly number[],
  reserveTokens: number,
): Pick<LeafView, "contextTokens" | "plans"> {
  planner.setPath(getPath(session.byId, leafId));
  return {
    contextTokens: planner.contextTokens().tokens,
    plans: keeps.map((keep) =>
      planView(session, keep, planner.plan({ keepRecentTokens: keep, reserveTokens })),
    ),
  };
}

/**
 * The systemMessage on the compaction entry Cutpoint writes at the end of `path`: the plan's
 * checkpoint through planFields and buildCompactionEntry, as the compaction runner does. Where no
 * plan exists (nothing to compact) Cutpoint writes no compaction; the row then checks the same
 * checkpoint straight from the path index (what the plan would carry).
 */
export function cutpointCompactionSystemMessage(path: readonly SessionEntry[]): SystemView | null {
  const planned = planCompaction(path, { keepRecentTokens: 1, reserveTokens: 16384 });
  const fields = planned.ok
    ? planFields(planned.plan, "conformance probe")
    : {
        summary: "conformance probe",
        firstKeptEntryId: "probe",
        tokensBefore: 0,
        details: { readFiles: [], modifiedFiles: [] },
        systemMessage: indexPath(path).systemReplay(),
      };
  const entry = buildCompactionEntry({
    ...fields,
    id: "probe",
    parentId: null,
    timestamp: "2026-12-01T00:00:00.000Z",
  });
  return systemView(entry.systemMessage);
}

/** Cutpoint's leaf on load and what it appends there. */
export function cutpointLeaf(session: CutpointSession): { leafId: string | null } & AppendsView {
  const leafId = resolveLeafId(session.entries) ?? null;
  // The app appends every new entry as a child of the stored leaf, which import sets to resolveLeafId.
  return {
    leafId,
    nextParentId: leafId,
    nextParentLine: session.lineOf(leafId),
    compactionSystemMessage: cutpointCompactionSystemMessage(getPath(session.byId, leafId)),
  };
}

export function cutpointSessionInfo(session: CutpointSession): {
  sessionName: string | null;
  labels: { targetId: string; targetLine: number | null; label: string }[];
} {
  const labels = [...resolveLabels(session.entries).entries()]
    .map(([targetId, label]) => ({ targetId, targetLine: session.lineOf(targetId), label }))
    .sort((a, b) => (a.targetLine ?? 0) - (b.targetLine ?? 0) || a.targetId.localeCompare(b.targetId));
  return { sessionName: getSessionName(session.entries) ?? null, labels };
}
