/**
 * What counts as a valid entry line. Loose by design: unknown types and unknown fields are
 * kept. A line is rejected only when keeping it would break the tree or the context:
 *
 * - not a JSON object (an array, a string, a number, null);
 * - `type` missing, not a string, empty, or `"session"` (a second header);
 * - `id` missing or not a non-empty string (v2+; v1 ids are assigned by the migration);
 * - `parentId` missing, or neither null nor a string, or equal to the entry's own id (v2+);
 * - `message` entries whose `message` is not an object with a string `role`;
 * - `custom_message` entries whose `content` is neither a string nor an array;
 * - `leaf` entries whose `targetId` is neither null nor a string.
 *
 * Everything else (timestamps, usage, content shapes, unknown types) is accepted as is.
 */
import type { SessionHeader } from "./types.ts";

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A session header line's object: `type` "session" and a string id (its version is read apart). */
export function isHeaderObject(value: unknown): value is SessionHeader {
  return isPlainObject(value) && value.type === "session" && typeof value.id === "string";
}

/** Why `value` is not a valid entry, or undefined when it is. `withIds`: check id/parentId. */
export function entryProblem(value: unknown, withIds: boolean): string | undefined {
  if (!isPlainObject(value)) {
    return `not a JSON object (found ${value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`})`;
  }
  const type = value.type;
  if (typeof type !== "string" || type === "") return "missing or invalid type";
  if (type === "session") return "a second session header";
  if (withIds) {
    const id = value.id;
    if (typeof id !== "string" || id === "") return "missing or invalid id";
    if (!("parentId" in value)) return "missing parentId";
    const parentId = value.parentId;
    if (parentId !== null && typeof parentId !== "string")
      return "invalid parentId (must be a string or null)";
    if (parentId === id) return "parentId equals the entry's own id";
  }
  if (type === "message") {
    const message = value.message;
    if (!isPlainObject(message)) return "message entry without a message object";
    if (typeof message.role !== "string") return "message without a role";
  } else if (type === "custom_message") {
    if (typeof value.content !== "string" && !Array.isArray(value.content)) {
      return "custom_message without string or array content";
    }
  } else if (type === "leaf") {
    if (value.targetId !== null && typeof value.targetId !== "string") {
      return "leaf entry without a string or null targetId";
    }
  }
  return undefined;
}
