/** The pins of a path, read from its shared context (one replay per path for every view). */
import { type Pin, pinsOf } from "../../core/agent/pins.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { sharedSessionContext, useSessionContext } from "../hooks/session-context.ts";

export function pathPins(path: readonly SessionEntry[]): Pin[] {
  return pinsOf(sharedSessionContext(path).systemMessage);
}

/** The pins of a path as a hook: undefined while a long path's context is being built. */
export function usePathPins(path: readonly SessionEntry[] | undefined): Pin[] | undefined {
  const context = useSessionContext(path);
  return context && pinsOf(context.systemMessage);
}
