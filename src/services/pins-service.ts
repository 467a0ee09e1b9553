/**
 * Pinned instructions of a session (core/agent/pins.ts): pin a text or a message, edit or unpin a
 * pin, each by appending one pi 1.6 system message that patches the prompt's sections at the leaf
 * the person saw. A session that declares no prompt yet declares the one it would use with its
 * first pin, so that pinning never changes what the model is told besides the pin.
 */
import { type PinChange, pinPatch } from "../core/agent/pins.ts";
import { PROMPT_SECTION, systemMessageEntry } from "../core/agent/settings.ts";
import { buildSessionContext } from "../core/session/context.ts";
import type { SessionEntry } from "../core/session/types.ts";
import { appendAtLeaf, type CutpointDb, fail, ok, type Result, type SessionRow } from "../db/index.ts";
import { getSystemPrompt } from "./agent-settings.ts";
import { newEntryId } from "./ids.ts";

export type PinRequest =
  | { kind: "add"; text: string }
  | Extract<PinChange, { kind: "edit" }>
  | Extract<PinChange, { kind: "remove" }>;

/** Applies a pin change to the session at the end of `path` (refused when the session moved on). */
export async function changePin(
  db: CutpointDb,
  sessionId: string,
  input: { path: readonly SessionEntry[]; request: PinRequest; expectedLeafId: string | null },
  options: { now?: Date } = {},
): Promise<Result<{ row: SessionRow; section: string }>> {
  const system = buildSessionContext(input.path).systemMessage;
  const taken = new Set(input.path.map((e) => e.id));
  const change: PinChange =
    input.request.kind === "add" ? { ...input.request, id: newEntryId(taken) } : input.request;
  const patch = pinPatch(system, change);
  if (!patch.ok) return fail("conflict", patch.error);
  const sections = system
    ? patch.sections
    : { [PROMPT_SECTION]: await getSystemPrompt(db, sessionId), ...patch.sections };
  const r = await appendAtLeaf(
    db,
    sessionId,
    { expectedLeafId: input.expectedLeafId, ...(options.now ? { now: options.now } : {}) },
    (row, now) => systemMessageEntry(row.leafId, { content: "", sections }, newEntryId(taken), now.getTime()),
  );
  return r.ok ? ok({ row: r.value, section: patch.section }) : r;
}
