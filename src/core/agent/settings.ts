/**
 * Entries for changing the model or the thinking level of a session. Append them (chained to the
 * leaf) before the next prompt; `settingsChanges` writes only what differs from the path.
 */
import { buildSessionContext } from "../session/context.ts";
import type {
  ModelChangeEntry,
  SessionEntry,
  ThinkingLevel,
  ThinkingLevelChangeEntry,
} from "../session/types.ts";

export const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

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
  wanted: { provider?: string; modelId?: string; thinkingLevel?: string },
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
    out.push(thinkingLevelChangeEntry(parentId, wanted.thinkingLevel, newId(), nowMs));
  }
  return out;
}
