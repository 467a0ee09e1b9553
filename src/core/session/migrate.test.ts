/**
 * Migration to v3: the real v1 fixture (compactions' kept entries, key order, deterministic,
 * idempotent), bad v1 indexes, id collisions, v2 hook messages, lenient header versions.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PI_FIXTURE } from "./fixture-path.ts";
import {
  deterministicIdGenerator,
  hash32Hex,
  headerVersion,
  migrateToV3,
  type ParsedObject,
  withCurrentVersion,
} from "./migrate.ts";
import type { SessionHeader } from "./types.ts";

function objectsOf(text: string): { header: SessionHeader; objects: ParsedObject[] } {
  const objects: ParsedObject[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      objects.push({ value: JSON.parse(line), line: i + 1 });
    } catch {
      // not JSON: pi does not count it
    }
  });
  const [head, ...rest] = objects;
  return { header: head?.value as SessionHeader, objects: rest };
}

const fixture = objectsOf(readFileSync(PI_FIXTURE, "utf8"));

describe("migrateToV3 on the real v1 fixture", () => {
  const migrated = migrateToV3(fixture.header, fixture.objects);
  const values = migrated.objects.map((o) => o.value as Record<string, unknown>);

  it("the two compactions keep from lines 294 and 552", () => {
    const lineOfId = new Map(migrated.objects.map((o) => [(o.value as { id: string }).id, o.line]));
    const compactions = migrated.objects.filter((o) => (o.value as { type: string }).type === "compaction");
    expect(compactions.map((c) => c.line)).toEqual([360, 629]);
    expect(
      compactions.map((c) => lineOfId.get((c.value as { firstKeptEntryId: string }).firstKeptEntryId)),
    ).toEqual([294, 552]);
    for (const c of compactions) expect(c.value).not.toHaveProperty("firstKeptEntryIndex");
  });

  it("puts type, id, parentId first and says version 3", () => {
    expect(Object.keys(values[0]!).slice(0, 4)).toEqual(["type", "id", "parentId", "timestamp"]);
    expect(migrated.header.version).toBe(3);
    expect(migrated.fromVersion).toBe(1);
    expect(Object.keys(migrated.header).slice(0, 2)).toEqual(["type", "version"]);
  });

  it("is deterministic and does not mutate its input", () => {
    const before = JSON.stringify(fixture.objects);
    const again = migrateToV3(fixture.header, fixture.objects);
    expect(again).toEqual(migrated);
    expect(JSON.stringify(fixture.objects)).toBe(before);
    expect(fixture.header.version).toBeUndefined();
  });

  it("is idempotent: migrating the v3 result changes nothing", () => {
    const twice = migrateToV3(migrated.header, migrated.objects, () => {
      throw new Error("newId must not be called on v3");
    });
    expect(twice.header).toBe(migrated.header);
    expect(twice.objects).toEqual(migrated.objects);
    twice.objects.forEach((o, i) => {
      expect(o).toBe(migrated.objects[i]);
    });
  });
});

describe("migrateToV3 details", () => {
  const header = { type: "session", id: "s", timestamp: "t", cwd: "/" } as SessionHeader;
  const obj = (value: unknown, line: number): ParsedObject => ({ value, line });

  it("v1 compaction index pointing at the header, at a bad object or past the end stays unset", () => {
    const objects = [
      obj({ type: "message", timestamp: "t", message: { role: "user", content: "a" } }, 2),
      obj([1, 2], 3),
      obj({ type: "compaction", summary: "s", firstKeptEntryIndex: 0, tokensBefore: 1 }, 4),
      obj({ type: "compaction", summary: "s", firstKeptEntryIndex: 2, tokensBefore: 1 }, 5),
      obj({ type: "compaction", summary: "s", firstKeptEntryIndex: 99, tokensBefore: 1 }, 6),
      obj({ type: "compaction", summary: "s", firstKeptEntryIndex: 1, tokensBefore: 1 }, 7),
    ];
    let n = 0;
    const result = migrateToV3(header, objects, () => `id${n++}`);
    const v = result.objects.map((o) => o.value as Record<string, unknown>);
    expect(v[1]).toEqual([1, 2]);
    for (const i of [2, 3, 4]) {
      expect(v[i]).not.toHaveProperty("firstKeptEntryId");
      expect(v[i]).not.toHaveProperty("firstKeptEntryIndex");
    }
    expect(v[5]?.firstKeptEntryId).toBe("id0");
    // the bad object does not join the chain
    expect(v[2]?.parentId).toBe("id0");
    expect(Object.keys(v[5]!)).toEqual([
      "type",
      "id",
      "parentId",
      "summary",
      "firstKeptEntryId",
      "tokensBefore",
    ]);
  });

  it("re-asks for an id when one collides", () => {
    const answers = ["same", "same", "same", "other"];
    const calls: [number, number][] = [];
    const result = migrateToV3(header, [obj({ type: "custom" }, 2), obj({ type: "custom" }, 3)], (i, a) => {
      calls.push([i, a]);
      return answers.shift()!;
    });
    expect(result.objects.map((o) => (o.value as { id: string }).id)).toEqual(["same", "other"]);
    expect(calls).toEqual([
      [1, 0],
      [2, 0],
      [2, 1],
      [2, 2],
    ]);
  });

  it("v2 -> v3 turns hookMessage into custom and keeps ids", () => {
    const v2 = { ...header, version: 2 };
    const hook = { type: "message", id: "h", parentId: null, message: { role: "hookMessage", content: "x" } };
    const result = migrateToV3(v2, [obj(hook, 2)], () => {
      throw new Error("no ids for v2");
    });
    expect(result.objects[0]?.value).toEqual({ ...hook, message: { role: "custom", content: "x" } });
    expect(hook.message.role).toBe("hookMessage");
    expect(result.header.version).toBe(3);
    expect(Object.keys(result.header)).toEqual(Object.keys(v2));
  });

  it("reads the header version leniently: a numeric string is a version, so a v3 file is never re-keyed", () => {
    const v3 = { ...header, version: "3" } as unknown as SessionHeader;
    const entry = { type: "custom", id: "keep", parentId: null };
    const result = migrateToV3(v3, [obj(entry, 2)], () => "fresh");
    expect(result.fromVersion).toBe(3);
    expect(result.objects[0]?.value).toBe(entry);
    expect(headerVersion({ ...header, version: 2 })).toBe(2);
    expect(headerVersion(header)).toBe(1);
  });

  it("deterministic ids are 8 lowercase hex chars and differ by index and attempt", () => {
    const gen = deterministicIdGenerator("abc");
    expect(gen(1, 0)).toMatch(/^[0-9a-f]{8}$/);
    expect(gen(1, 0)).toBe(gen(1, 0));
    expect(gen(1, 0)).not.toBe(gen(2, 0));
    expect(gen(1, 0)).not.toBe(gen(1, 1));
    expect(hash32Hex("")).toBe("811c9dc5");
    expect(withCurrentVersion({ ...header, version: 3 }).version).toBe(3);
  });
});
