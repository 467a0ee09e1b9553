/**
 * Pinned instructions: text the person pinned (project rules, the original request) kept as named
 * sections of the session's system prompt, i.e. pi 1.6 system messages (docs/session-format.md
 * §5). A compaction's system checkpoint replays every section, so a pin reaches the model word for
 * word after any number of compactions, in Cutpoint and in pi's replay; pi's own runtime keeps it
 * only with Cutpoint's pins extension (public/pi/, docs/pi.md). Pinning, editing and unpinning each
 * append one patch; history is never rewritten.
 */
import { contentText } from "../session/system-prompt.ts";
import type { SessionEntry, SystemMessage } from "../session/types.ts";

/** Section names of pins: "pin-" and an id (pi accepts section names matching /^[a-z][a-z0-9_-]*$/). */
export const PIN_SECTION_PREFIX = "pin-";

/** The wrapping of pins written before Cutpoint wrote them as pi renders a custom section. */
const OLD_OPEN = "<pinned>\n";
const OLD_CLOSE = "\n</pinned>";

export interface Pin {
  /** The section that holds it. */
  section: string;
  /** The text as the person pinned it. */
  text: string;
  /** The section's whole value, as the model reads it. */
  value: string;
}

export type SectionsPatch = Record<string, string | null>;

export const isPinSection = (name: string): boolean =>
  name.startsWith(PIN_SECTION_PREFIX) && /^[a-z][a-z0-9_-]*$/.test(name);

/**
 * The section value of a pin: the text unchanged between tags named after the section, exactly as
 * pi 1.6 renders a custom prompt section of that name, so that pi (with Cutpoint's pins extension,
 * public/pi/) re-applies the pin without changing it.
 */
export function pinSectionValue(section: string, text: string): string {
  return `<${section}>\n${text}\n</${section}>`;
}

/** The pinned text of a section value: inside its own tags or the older <pinned> tags, else whole. */
export function pinTextOf(value: string, section?: string): string {
  const tags: [string, string][] = [[OLD_OPEN, OLD_CLOSE]];
  if (section) tags.unshift([`<${section}>\n`, `\n</${section}>`]);
  for (const [open, close] of tags) {
    if (value.length >= open.length + close.length && value.startsWith(open) && value.endsWith(close))
      return value.slice(open.length, value.length - close.length);
  }
  return value;
}

/**
 * True when the system message declares a prompt of its own: a base text or a section that is not
 * a pin. A session whose system messages hold only pins still takes the prompt set in Cutpoint.
 */
export function declaresPrompt(system: SystemMessage | undefined): boolean {
  if (!system) return false;
  if (contentText(system.content).length > 0) return true;
  return Object.entries(system.sections ?? {}).some(
    ([name, v]) => typeof v === "string" && !isPinSection(name),
  );
}

/** The pins of a replayed system message, in the order the prompt lists them. */
export function pinsOf(system: SystemMessage | undefined): Pin[] {
  const out: Pin[] = [];
  for (const [section, value] of Object.entries(system?.sections ?? {})) {
    if (typeof value === "string" && isPinSection(section))
      out.push({ section, text: pinTextOf(value, section), value });
  }
  return out;
}

/** A section name for a new pin from `id` (lower-cased, other characters dropped), unused in `system`. */
export function newPinSection(system: SystemMessage | undefined, id: string): string {
  const base = `${PIN_SECTION_PREFIX}${id.toLowerCase().replace(/[^a-z0-9_-]/g, "") || "x"}`;
  const used = new Set(Object.keys(system?.sections ?? {}));
  let name = base;
  for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
  return name;
}

export type PinChange =
  | { kind: "add"; text: string; id: string }
  | { kind: "edit"; section: string; text: string }
  | { kind: "remove"; section: string };

/**
 * The sections patch for a change, or an error: an empty pin, an edit or removal of a section
 * that is not a pin of the session, or an edit that changes nothing.
 */
export function pinPatch(
  system: SystemMessage | undefined,
  change: PinChange,
): { ok: true; sections: SectionsPatch; section: string } | { ok: false; error: string } {
  if (change.kind === "add") {
    if (change.text.trim() === "") return { ok: false, error: "A pin needs some text." };
    const section = newPinSection(system, change.id);
    return { ok: true, section, sections: { [section]: pinSectionValue(section, change.text) } };
  }
  const pin = pinsOf(system).find((p) => p.section === change.section);
  if (!pin) return { ok: false, error: "That pin is no longer in the session's prompt." };
  if (change.kind === "remove") return { ok: true, section: pin.section, sections: { [pin.section]: null } };
  if (change.text.trim() === "") return { ok: false, error: "A pin needs some text (or unpin it)." };
  if (change.text === pin.text) return { ok: false, error: "Nothing changed." };
  return {
    ok: true,
    section: pin.section,
    sections: { [pin.section]: pinSectionValue(pin.section, change.text) },
  };
}

/**
 * The text pinning an entry takes: the text of a person's message, of a reply (its text blocks,
 * without tool calls or thinking) or of a custom message; "" for anything else.
 */
export function entryPinText(entry: SessionEntry): string {
  const e = entry as { type: string; message?: { role?: unknown; content?: unknown }; content?: unknown };
  if (e.type === "custom_message") return contentText(e.content).trim();
  if (e.type !== "message" || !e.message) return "";
  const role = e.message.role;
  if (role !== "user" && role !== "assistant") return "";
  return contentText(e.message.content, "\n\n").trim();
}

/** A pin's share of the prompt in pi's chars/4 estimate (its section value). */
export const pinTokens = (pin: Pin): number => Math.ceil(pin.value.length / 4);

/** The pins a system prompt carries and their tokens (pi's chars/4 estimate), for the review. */
export function pinsCarried(system: SystemMessage | undefined): {
  count: number;
  tokens: number;
  pins: Pin[];
} {
  const pins = pinsOf(system);
  return { count: pins.length, tokens: pins.reduce((n, p) => n + pinTokens(p), 0), pins };
}
