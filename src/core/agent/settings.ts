/**
 * Entries for changing the model, the thinking level or the prompt and tool loadout of a session.
 * Append them (chained to the leaf) before the next prompt; `settingsChanges` writes only what
 * differs from the path. The loadout is a pi 1.6 system message (docs/session-format.md §5): the
 * first one declares the prompt (as the section "prompt") and the tools; later ones patch them.
 */
import { buildSessionContext } from "../session/context.ts";
import type {
  MessageEntry,
  ModelChangeEntry,
  SessionEntry,
  SystemMessage,
  ThinkingLevel,
  ThinkingLevelChangeEntry,
  ToolDeclaration,
} from "../session/types.ts";
import { declaresPrompt, isPinSection } from "./pins.ts";

export const THINKING_LEVELS: readonly ThinkingLevel[] = [
  "off",
  "minimal",
  "low",
  "medium",
  "high",
  "xhigh",
  "max",
];

/** A tool as offered to the model (name, description, JSON-schema parameters). */
export type ToolSpecLike = Pick<ToolDeclaration, "name" | "description" | "parameters">;

/** The section Cutpoint keeps its prompt in, so that an edit can replace it. */
export const PROMPT_SECTION = "prompt";

export type SystemPatch = Omit<SystemMessage, "role" | "timestamp">;

export function systemMessageEntry(
  parentId: string | null,
  message: SystemPatch,
  id: string,
  nowMs: number,
): MessageEntry {
  return {
    type: "message",
    id,
    parentId,
    timestamp: new Date(nowMs).toISOString(),
    message: { ...message, role: "system", timestamp: nowMs } as SystemMessage,
  };
}

const declared = (t: ToolDeclaration) =>
  JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters });

/**
 * The system message that makes the session declare `tools` (and, when it declares no prompt yet,
 * `prompt`: a session whose system messages hold only pins declares none), or undefined when it
 * already does: a changed definition is removed and added again.
 */
export function loadoutChange(
  current: SystemMessage | undefined,
  wanted: { prompt: string; tools: readonly ToolSpecLike[] },
): SystemPatch | undefined {
  const tools = wanted.tools.map((t) => ({
    name: t.name,
    description: t.description,
    parameters: t.parameters,
  }));
  if (!current) return { content: "", sections: { [PROMPT_SECTION]: wanted.prompt }, toolsAdded: tools };
  const before = new Map((current.toolsAdded ?? []).map((t) => [t.name, declared(t)]));
  const after = new Map(tools.map((t) => [t.name, declared(t)]));
  const added = tools.filter((t) => before.get(t.name) !== after.get(t.name));
  const removed = [...before.keys()]
    .filter((name) => before.get(name) !== after.get(name))
    .map((name) => ({ name }));
  const prompt = declaresPrompt(current) ? undefined : wanted.prompt;
  if (added.length === 0 && removed.length === 0 && prompt === undefined) return undefined;
  return {
    content: "",
    ...(prompt !== undefined ? { sections: { [PROMPT_SECTION]: prompt } } : {}),
    ...(added.length > 0 ? { toolsAdded: added } : {}),
    ...(removed.length > 0 ? { toolsRemoved: removed } : {}),
  };
}

/**
 * The patch that makes the prompt read `text`: Cutpoint's section set to it and every other
 * section removed except the pins (pins.ts; they are changed on their own). A base `content` a pi session started with cannot be removed by a patch (pi
 * appends contents); it stays in front, and `baseText` says what it is.
 */
export function promptEdit(current: SystemMessage | undefined, text: string): SystemPatch {
  const sections: Record<string, string | null> = {};
  for (const name of Object.keys(current?.sections ?? {}))
    if (name !== PROMPT_SECTION && !isPinSection(name)) sections[name] = null;
  sections[PROMPT_SECTION] = text;
  return { content: "", sections };
}

export function modelChangeEntry(
  parentId: string | null,
  model: { provider: string; modelId: string },
  id: string,
  nowMs: number,
): ModelChangeEntry {
  return {
    type: "model_change",
    id,
    parentId,
    timestamp: new Date(nowMs).toISOString(),
    provider: model.provider,
    modelId: model.modelId,
  };
}

export function thinkingLevelChangeEntry(
  parentId: string | null,
  thinkingLevel: ThinkingLevel | string,
  id: string,
  nowMs: number,
): ThinkingLevelChangeEntry {
  return {
    type: "thinking_level_change",
    id,
    parentId,
    timestamp: new Date(nowMs).toISOString(),
    thinkingLevel,
  };
}

/**
 * The entries needed so that the path ends with the wanted model and thinking level (none when
 * they already apply). Chained: the second entry's parent is the first.
 */
export function settingsChanges(
  path: readonly SessionEntry[],
  wanted: {
    provider?: string;
    modelId?: string;
    thinkingLevel?: string;
    /** The prompt for a session that declares none yet, and the tools this run offers. */
    loadout?: { prompt: string; tools: readonly ToolSpecLike[] };
  },
  newId: () => string,
  nowMs: number,
  /** Parent of the first entry; defaults to the last entry of the path. */
  leafId?: string | null,
): SessionEntry[] {
  const ctx = buildSessionContext(path);
  const out: SessionEntry[] = [];
  let parentId = leafId !== undefined ? leafId : (path[path.length - 1]?.id ?? null);
  if (
    wanted.provider !== undefined &&
    wanted.modelId !== undefined &&
    (ctx.model?.provider !== wanted.provider || ctx.model?.modelId !== wanted.modelId)
  ) {
    const e = modelChangeEntry(
      parentId,
      { provider: wanted.provider, modelId: wanted.modelId },
      newId(),
      nowMs,
    );
    out.push(e);
    parentId = e.id;
  }
  if (wanted.thinkingLevel !== undefined && wanted.thinkingLevel !== ctx.thinkingLevel) {
    const e = thinkingLevelChangeEntry(parentId, wanted.thinkingLevel, newId(), nowMs);
    out.push(e);
    parentId = e.id;
  }
  const loadout = wanted.loadout ? loadoutChange(ctx.systemMessage, wanted.loadout) : undefined;
  if (loadout) out.push(systemMessageEntry(parentId, loadout, newId(), nowMs));
  return out;
}
