/**
 * The session's prompt as pi 1.6 keeps it: read from its system messages (replayed), changed by
 * appending a system message that patches it (docs/session-format.md §5). A session that declares
 * no prompt yet uses the one set for it in this browser (or the default) until its first run.
 */
import { keepPiLoadout } from "../../core/agent/pi-loadout.ts";
import { declaresPrompt, isPinSection, type Pin, pinsOf } from "../../core/agent/pins.ts";
import { PROMPT_SECTION, promptEdit, systemMessageEntry } from "../../core/agent/settings.ts";
import { buildSessionContext } from "../../core/session/context.ts";
import { contentText, systemMessageText } from "../../core/session/system-prompt.ts";
import type { SessionEntry, SystemMessage } from "../../core/session/types.ts";
import { appendAtLeaf, type CutpointDb, type Result, type SessionRow } from "../../db/index.ts";
import { getSystemPrompt } from "../agent/agent-settings.ts";
import { newEntryId } from "../common/ids.ts";

export interface SessionPrompt {
  /** True when the session declares its prompt (system messages); else `text` is the browser's setting. */
  declared: boolean;
  /** The whole prompt the model gets. */
  text: string;
  /** A base text a pi session started with: a patch cannot remove it, so it stays in front. */
  base: string;
  /** The editable part: the sections except pins (Cutpoint's prompt section first). */
  editable: string;
  /** The pinned instructions among the sections (pins.ts), in prompt order. */
  pins: Pin[];
  /** Names of the tools the session declares. */
  tools: string[];
  system: SystemMessage | undefined;
}

/** The prompt of the session at the end of `path`. */
export async function sessionPrompt(
  db: CutpointDb,
  sessionId: string,
  path: readonly SessionEntry[],
): Promise<SessionPrompt> {
  const system = buildSessionContext(path).systemMessage;
  const tools = (system?.toolsAdded ?? []).map((t) => t.name);
  if (!declaresPrompt(system)) {
    const text = await getSystemPrompt(db, sessionId);
    const pins = pinsOf(system);
    const whole = [text, ...pins.map((p) => p.value)].filter((p) => p.length > 0).join("\n\n");
    return { declared: false, text: whole, base: "", editable: text, pins, tools, system };
  }
  const base = contentText(system?.content);
  const sections = Object.entries(system?.sections ?? {}).filter(
    (e): e is [string, string] => typeof e[1] === "string" && !isPinSection(e[0]),
  );
  sections.sort((a, b) => (a[0] === PROMPT_SECTION ? -1 : b[0] === PROMPT_SECTION ? 1 : 0));
  return {
    declared: true,
    text: systemMessageText(system),
    base,
    editable: sections.map(([, v]) => v).join("\n\n"),
    pins: pinsOf(system),
    tools,
    system,
  };
}

/**
 * Makes the session's prompt read `text` (after a base it cannot drop): appends one system
 * message at the leaf the person saw, or nothing when the text is unchanged.
 */
export function saveSessionPrompt(
  db: CutpointDb,
  sessionId: string,
  input: { current: SystemMessage | undefined; text: string; expectedLeafId: string | null },
  options: { now?: Date; taken?: { has(id: string): boolean } } = {},
): Promise<Result<SessionRow>> {
  return appendAtLeaf(
    db,
    sessionId,
    { expectedLeafId: input.expectedLeafId, ...(options.now ? { now: options.now } : {}) },
    (row, now) => {
      const patch = keepPiLoadout(input.current, promptEdit(input.current, input.text));
      return systemMessageEntry(row.leafId, patch, newEntryId(options.taken), now.getTime());
    },
  );
}
