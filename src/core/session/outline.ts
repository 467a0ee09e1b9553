/**
 * Outlines of a stored chunk's entries: what the tree, the path and the timeline's model read,
 * without the messages' bodies, so that a reopened session is shown whole before its 100 MB of
 * JSONL are parsed (services/session/session-loader.ts fills the bodies in afterwards). Pure.
 *
 * - An entry other than a message, and a system message (the projection folds its sections), is
 *   kept whole.
 * - A message keeps its role and the few fields that make its row's kind (KEPT_FIELDS); its
 *   content becomes empty, but an assistant's tool calls keep their name. Everything else (text,
 *   arguments, details, output, usage) is left out: the entry "awaits its body".
 * - Derived data, stored beside the chunk's token counts (db/chunk-tokens.ts) under
 *   OUTLINE_RULE: an outline of another rule, or one that does not line up with its chunk, is
 *   never used.
 */
import type { SessionEntry } from "./types.ts";

/** The rule outlines are made with; change it whenever what an outline keeps changes. */
export const OUTLINE_RULE = "outline/1";

/**
 * The fields of a message its outline keeps besides its role and content: what its timeline row
 * and the projection read (its kind: an error, a tool's result, a custom message shown or not).
 */
const KEPT_FIELDS = ["stopReason", "toolName", "isError", "customType", "display", "exitCode", "cancelled"];

type Rec = Record<string, unknown>;

/** What a message's outline keeps of its content: an assistant's tool calls, by name. */
function outlineContent(role: unknown, content: unknown): unknown {
  if (typeof content === "string") return "";
  if (role !== "assistant" || !Array.isArray(content)) return [];
  const calls: Rec[] = [];
  for (const block of content as Rec[])
    if (block && block.type === "toolCall") calls.push({ type: "toolCall", name: block.name });
  return calls;
}

const isScalar = (value: unknown) =>
  value === null || typeof value === "number" || typeof value === "boolean" || typeof value === "string";

/** The outline of a message (a new object), or undefined when the message is kept whole. */
function outlineMessage(message: Rec): Rec | undefined {
  if (message.role === "system") return undefined;
  const out: Rec = { role: message.role };
  if ("content" in message) out.content = outlineContent(message.role, message.content);
  for (const key of KEPT_FIELDS) if (isScalar(message[key])) out[key] = message[key];
  return out;
}

/** Whether `entry` is outlined without its body (a message other than a system one). */
function outlined(entry: SessionEntry): entry is SessionEntry & { message: Rec } {
  const message = (entry as { message?: unknown }).message;
  return entry.type === "message" &&
    message !== null &&
    typeof message === "object" &&
    !Array.isArray(message)
    ? (message as Rec).role !== "system"
    : false;
}

/**
 * The stored outline of `entries[from .. from + count)`: one JSON text holding each entry's
 * outline (in order) and the positions of those that leave their body out.
 */
export function chunkOutline(entries: readonly SessionEntry[], from: number, count: number): string {
  const out: unknown[] = [];
  const bodiless: number[] = [];
  for (let i = 0; i < count; i++) {
    const entry = entries[from + i]!;
    const message = outlined(entry) ? outlineMessage(entry.message) : undefined;
    if (message) {
      out.push({ ...entry, message });
      bodiless.push(i);
    } else out.push(entry);
  }
  return JSON.stringify({ rule: OUTLINE_RULE, count, bodiless, entries: out });
}

/** Whether a stored outline was made with this rule (without parsing it). */
export function outlineIsCurrent(text: string): boolean {
  return text.startsWith(`{"rule":${JSON.stringify(OUTLINE_RULE)},`);
}

/** A stored outline, parsed: its entries, and which of them await their body. */
export interface ParsedOutline {
  entries: SessionEntry[];
  /** Positions (in `entries`) of the entries without their body, ascending. */
  bodiless: number[];
}

/**
 * Parses a stored outline of a chunk of `count` entries; undefined when it is not one of this
 * rule or does not hold `count` entries (then the chunk is read whole instead).
 */
export function parseOutline(text: string, count: number): ParsedOutline | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const v = value as { rule?: unknown; count?: unknown; bodiless?: unknown; entries?: unknown };
  if (!v || v.rule !== OUTLINE_RULE || v.count !== count) return undefined;
  if (!Array.isArray(v.entries) || v.entries.length !== count || !Array.isArray(v.bodiless)) return undefined;
  return { entries: v.entries as SessionEntry[], bodiless: v.bodiless as number[] };
}

/**
 * Gives an outlined entry the body of `full`, the same entry parsed from its line: the entry
 * object stays (the views' models hold it), its message becomes the full one. False, changing
 * nothing, when `full` is not the same entry (another id or type).
 */
export function fillBody(outlinedEntry: SessionEntry, full: SessionEntry): boolean {
  if (outlinedEntry.id !== full.id || outlinedEntry.type !== full.type) return false;
  const message = (full as { message?: unknown }).message;
  if (message === undefined) return false;
  (outlinedEntry as { message?: unknown }).message = message;
  return true;
}
