/** The pins of a path, read from its shared context (one replay per path for every view). */
import { type Pin, pinsOf } from "../../core/agent/pins.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { sharedSessionContext } from "../hooks/session-context.ts";

export function pathPins(path: readonly SessionEntry[]): Pin[] {
  return pinsOf(sharedSessionContext(path).systemMessage);
}
