/**
 * Format migrations, run on load in order when the header's version is lower
 * (docs/session-format.md §3):
 * - v1 -> v2: entries get fresh ids and a parentId chain; a compaction's
 *   `firstKeptEntryIndex` (index into the parsed objects, header = 0) becomes
 *   `firstKeptEntryId` (left unset when it points at the header, at a non-entry, or past the end).
 * - v2 -> v3: messages with role `hookMessage` become role `custom`.
 * A file already at v3 (or newer) is returned unchanged (same objects), so migration is idempotent.
 *
 * In v1, only objects that are valid entries (see validate.ts) get an id and join the chain, so a
 * garbage line between two entries does not cut the path; the garbage still passes through and
 * is reported by the parser. Inputs are never mutated: changed entries are new objects.
 */
import { CURRENT_SESSION_VERSION, type SessionHeader } from "./types.ts";
import { entryProblem, isPlainObject } from "./validate.ts";

export interface ParsedObject {
  value: unknown;
  /** 1-based physical line. */
  line: number;
}

/**
 * Gives the id for the v1 object at `index` (its position among the parsed objects, header = 0);
 * `attempt` counts up from 0 when a previous answer collided. A plain `() => string` fits too.
 */
export type NewId = (index: number, attempt: number) => string;

export interface MigrationResult {
  header: SessionHeader;
  objects: ParsedObject[];
  /** The version read from the header (a missing version means 1). */
  fromVersion: number;
}

/** The header's version: a number, or a numeric string (read leniently); anything else means 1. */
export function headerVersion(header: SessionHeader): number {
  const version: unknown = header.version;
  if (typeof version === "number" && Number.isFinite(version)) return version;
  if (typeof version === "string" && version.trim() !== "" && Number.isFinite(Number(version)))
    return Number(version);
  return 1;
}

/** A copy of `header` saying version 3: an existing `version` key keeps its place, else it follows `type`. */
export function withCurrentVersion(header: SessionHeader): SessionHeader {
  if (header.version === CURRENT_SESSION_VERSION) return header;
  if ("version" in header) return { ...header, version: CURRENT_SESSION_VERSION };
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(header)) {
    out[key] = header[key];
    if (key === "type") out.version = CURRENT_SESSION_VERSION;
  }
  if (!("version" in out)) out.version = CURRENT_SESSION_VERSION;
  return out as SessionHeader;
}

/** 32-bit FNV-1a of a string, as 8 lowercase hex chars. */
export function hash32Hex(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** Deterministic ids for a v1 migration: a hash of the session id, the object's index and the attempt. */
export function deterministicIdGenerator(sessionId: string): NewId {
  return (index, attempt) =>
    hash32Hex(attempt === 0 ? `${sessionId}:${index}` : `${sessionId}:${index}:${attempt}`);
}

function migrateV1ToV2(objects: readonly ParsedObject[], newId: NewId): ParsedObject[] {
  const used = new Set<string>();
  /** id given to each object, by its index among the parsed objects (header = 0). */
  const idAt: (string | undefined)[] = [undefined];
  let previousId: string | null = null;
  const out: ParsedObject[] = [];
  for (let i = 0; i < objects.length; i++) {
    const object = objects[i]!;
    if (entryProblem(object.value, false) !== undefined) {
      idAt.push(undefined);
      out.push(object);
      continue;
    }
    let attempt = 0;
    let id = newId(i + 1, attempt);
    while (used.has(id)) id = newId(i + 1, ++attempt);
    used.add(id);
    idAt.push(id);
    const { type, id: _oldId, parentId: _oldParent, ...rest } = object.value as Record<string, unknown>;
    out.push({ value: { type, id, parentId: previousId, ...rest }, line: object.line });
    previousId = id;
  }
  for (const object of out) {
    const value = object.value;
    if (!isPlainObject(value) || value.type !== "compaction" || !("firstKeptEntryIndex" in value)) continue;
    const index = value.firstKeptEntryIndex;
    const keptId = typeof index === "number" && Number.isInteger(index) ? idAt[index] : undefined;
    const replaced: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (key === "firstKeptEntryIndex") {
        if (keptId !== undefined) replaced.firstKeptEntryId = keptId;
      } else {
        replaced[key] = value[key];
      }
    }
    object.value = replaced;
  }
  return out;
}

function migrateV2ToV3(objects: readonly ParsedObject[]): ParsedObject[] {
  return objects.map((object) => {
    const value = object.value;
    if (!isPlainObject(value) || value.type !== "message") return object;
    const message = value.message;
    if (!isPlainObject(message) || message.role !== "hookMessage") return object;
    return { value: { ...value, message: { ...message, role: "custom" } }, line: object.line };
  });
}

/**
 * Migrates the objects that follow `header` (every parsed JSON value after it, in file order)
 * to version 3. `newId` is only called for v1 files.
 */
export function migrateToV3(
  header: SessionHeader,
  objects: readonly ParsedObject[],
  newId: NewId = deterministicIdGenerator(header.id),
): MigrationResult {
  const fromVersion = headerVersion(header);
  if (fromVersion >= CURRENT_SESSION_VERSION) return { header, objects: [...objects], fromVersion };
  let migrated: readonly ParsedObject[] = objects;
  if (fromVersion < 2) migrated = migrateV1ToV2(migrated, newId);
  const v3 = migrateV2ToV3(migrated);
  return { header: withCurrentVersion(header), objects: v3, fromVersion };
}
