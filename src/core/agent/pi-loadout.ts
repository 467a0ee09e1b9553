/**
 * What a system message Cutpoint appends carries so that pi 1.6, continuing the session, restores
 * the same tools and prompt as before it, except for what the person changed (docs/pi.md).
 *
 * pi's runtime restores its active tools from the branch's system messages: with none it keeps its
 * defaults, with any it activates exactly the tools they declare. So the first system message
 * Cutpoint writes on a session that has none (a pin, an edited prompt) declares pi's default tool
 * names; pi replaces those declarations with its own before its first request (it compares the
 * definitions), and Cutpoint's agent replaces them with its tools on its first run.
 */

import type { SystemMessage, ToolDeclaration } from "../session/types.ts";
import type { SystemPatch } from "./settings.ts";

/** The tools pi 1.6 enables when its `defaultTools` setting does not change them. */
export const PI_DEFAULT_TOOL_NAMES: readonly string[] = ["read", "bash", "edit", "write"];

/** Declarations standing for pi's default tools: the names pi restores, Cutpoint's own words. */
export function piDefaultToolDeclarations(
  names: readonly string[] = PI_DEFAULT_TOOL_NAMES,
): ToolDeclaration[] {
  return names.map((name) => ({
    name,
    description: `pi's built-in ${name} tool, declared by Cutpoint so that pi keeps its default tools; pi declares its own definition when it continues the session.`,
    parameters: { type: "object", properties: {} },
  }));
}

/**
 * The patch to append, made safe for pi: on a session without a system message (`current`
 * undefined) a patch that declares no tools also declares pi's default tools; otherwise unchanged.
 */
export function keepPiLoadout(
  current: SystemMessage | undefined,
  patch: SystemPatch,
  defaultTools: readonly string[] = PI_DEFAULT_TOOL_NAMES,
): SystemPatch {
  if (current || (Array.isArray(patch.toolsAdded) && patch.toolsAdded.length > 0)) return patch;
  return { ...patch, toolsAdded: piDefaultToolDeclarations(defaultTools) };
}
