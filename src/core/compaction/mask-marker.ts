/** How a masked tool output is recognised (the placeholder's opening words): small, for the timeline. */

export const MASK_PREFIX = "[Tool output masked to save context.";

/** True when a (projected) tool result's content is a mask placeholder. */
export function isMasked(content: unknown): boolean {
  if (typeof content === "string") return content.startsWith(MASK_PREFIX);
  if (!Array.isArray(content)) return false;
  const first = content.find(
    (b) => b && typeof b === "object" && (b as { type?: unknown }).type === "text",
  ) as { text?: unknown } | undefined;
  return typeof first?.text === "string" && first.text.startsWith(MASK_PREFIX);
}
