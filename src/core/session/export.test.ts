/**
 * Session export: the v3 layout, and export → import → export byte-identical on the fixture
 * and on generated entries with unknown fields (property).
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { serializeSession } from "./export.ts";
import { PI_FIXTURE } from "./fixture-path.ts";
import { parseSessionJsonl } from "./parse.ts";
import type { SessionEntry, SessionHeader } from "./types.ts";

function reexport(text: string): string {
  const result = parseSessionJsonl(text);
  if (!result.ok) throw new Error(result.error.message);
  return serializeSession(result.value.header, result.value.entries);
}

describe("serializeSession", () => {
  it("writes the v3 header, one entry per line and a trailing newline", () => {
    const header = { type: "session", id: "s", timestamp: "t", cwd: "/" } as SessionHeader;
    const entries = [
      { type: "custom", id: "a", parentId: null, timestamp: "t", customType: "x" },
    ] as SessionEntry[];
    expect(serializeSession(header, entries)).toBe(
      '{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}\n' +
        '{"type":"custom","id":"a","parentId":null,"timestamp":"t","customType":"x"}\n',
    );
  });

  it("fixture: export -> import -> export is byte-identical", () => {
    const once = reexport(readFileSync(PI_FIXTURE, "utf8"));
    expect(once.split("\n")).toHaveLength(1004);
    expect(reexport(once)).toBe(once);
  });

  it("property: generated entries with unknown fields and types survive byte-identically", () => {
    const key = fc
      .string({ minLength: 1, maxLength: 8 })
      .filter((k) => !["type", "id", "parentId"].includes(k));
    const extra = fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
    const type = fc.oneof(
      fc.constantFrom("custom", "model_change", "session_info", "label", "branch_summary"),
      fc.stringMatching(/^[a-z_]{1,12}$/).filter((t) => t !== "session" && t !== "message"),
    );
    const spec = fc.record({ type, extra, isRoot: fc.boolean(), unicode: fc.string({ unit: "grapheme" }) });
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 30 }), (specs) => {
        const entries = specs.map((s, i) => ({
          type: s.type,
          id: `id-${i}`,
          parentId: s.isRoot || i === 0 ? null : `id-${i - 1}`,
          ...s.extra,
          text: s.unicode,
        })) as unknown as SessionEntry[];
        const header = {
          type: "session",
          version: 3,
          id: "s",
          timestamp: "t",
          cwd: "/",
          extra: 1,
        } as SessionHeader;
        const text = serializeSession(header, entries);
        const result = parseSessionJsonl(text);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect(result.value.problems).toEqual([]);
        // JSON itself normalizes a few values (-0 -> 0): compare with the JSON form of the input.
        expect(result.value.entries).toEqual(JSON.parse(JSON.stringify(entries)));
        expect(serializeSession(result.value.header, result.value.entries)).toBe(text);
      }),
    );
  });
});
