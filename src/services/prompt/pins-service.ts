/**
 * Pinned instructions of a session (core/agent/pins.ts): pin a text or a message, edit or unpin a
 * pin, each by appending one pi 1.6 system message that patches the prompt's sections at the leaf
 * the person saw. The patch holds the pin and nothing else (keepPiLoadout adds pi's default tools
 * on a session without a system message), so neither Cutpoint's agent (which adds its prompt to a
 * session that declares none, core/agent/settings.ts) nor pi tells the model anything else.
 */

import { keepPiLoadout } from "../../core/agent/pi-loadout.ts";
import { type PinChange, pinPatch } from "../../core/agent/pins.ts";
import { systemMessageEntry } from "../../core/agent/settings.ts";
import { buildSessionContext } from "../../core/session/context.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { appendAtLeaf, type CutpointDb, fail, ok, type Result, type SessionRow } from "../../db/index.ts";
import { newEntryId } from "../common/ids.ts";

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
  const message = keepPiLoadout(system, { content: "", sections: patch.sections });
  const r = await appendAtLeaf(
    db,
    sessionId,
    { expectedLeafId: input.expectedLeafId, ...(options.now ? { now: options.now } : {}) },
    (row, now) => systemMessageEntry(row.leafId, message, newEntryId(taken), now.getTime()),
  );
  return r.ok ? ok({ row: r.value, section: patch.section }) : r;
}
