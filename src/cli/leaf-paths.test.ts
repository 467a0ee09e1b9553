/**
 * The CLI's leaf-path walker: getPath's path for any sequence of leaves on damaged trees, with the
 * planner following it (property); a move keeps the shared prefix.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPlanner } from "../core/compaction/index.ts";
import { buildTreeIndex, getPath, type ParsedSession, type SessionEntry } from "../core/session/index.ts";
import { assistant, msg, user } from "../core/session/test-builders.ts";
import { LeafPathWalker, sessionPath } from "./leaf-paths.ts";

/** Entries whose parents are arbitrary: earlier entries, later ones (cycles), missing ids, null; ids may repeat. */
const forest = fc
  .array(
    fc.record({
      parent: fc.oneof(fc.constant(-1), fc.constant(-2), fc.nat(40)),
      dupOf: fc.option(fc.nat(40), { freq: 8 }),
      role: fc.constantFrom("user", "assistant"),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((specs) => {
    const ids = specs.map((s, i) => (s.dupOf !== null && s.dupOf < i ? `e${s.dupOf}` : `e${i}`));
    return specs.map((s, i) => {
      const parentId =
        s.parent === -1 ? null : s.parent === -2 ? "missing" : (ids[s.parent % specs.length] ?? null);
      const message = s.role === "user" ? user(`u${i} ${"x".repeat(i * 7)}`) : assistant(`a${i}`);
      return msg(ids[i]!, parentId, message);
    });
  });

describe("LeafPathWalker", () => {
  it("gives getPath's path for any sequence of leaves, and the planner follows it", () => {
    fc.assert(
      fc.property(forest, fc.array(fc.nat(60), { minLength: 1, maxLength: 30 }), (entries, picks) => {
        const index = buildTreeIndex(entries);
        const follower: SessionEntry[] = [];
        const planner = createPlanner();
        const walker = new LeafPathWalker(index, {
          setPath(path) {
            follower.length = 0;
            follower.push(...path);
            planner.setPath(path);
          },
          append(entry) {
            follower.push(entry);
            planner.append(entry);
          },
        });
        for (const pick of picks) {
          const id = entries[pick % entries.length]!.id;
          const expected = getPath(index.byId, id);
          expect(walker.moveTo(id)).toEqual(expected);
          expect(follower).toEqual(expected);
          expect(planner.length).toBe(expected.length);
          const fresh = createPlanner();
          fresh.setPath(expected);
          expect(planner.contextTokens()).toEqual(fresh.contextTokens());
        }
      }),
      { numRuns: 300 },
    );
  });

  it("keeps the shared prefix: a linear session walked line by line appends one entry per move", () => {
    const entries: SessionEntry[] = [];
    for (let i = 0; i < 50; i++) entries.push(msg(`m${i}`, i === 0 ? null : `m${i - 1}`, user(`${i}`)));
    const walker = new LeafPathWalker(buildTreeIndex(entries));
    const kept: number[] = [];
    for (const e of entries) {
      walker.moveTo(e.id);
      kept.push(walker.kept);
    }
    expect(kept).toEqual(entries.map((_, i) => i));
    // Back to a sibling branch: keeps the common ancestor's prefix only.
    const branch = [...entries, msg("b", "m9", user("branch"))];
    const w2 = new LeafPathWalker(buildTreeIndex(branch));
    w2.moveTo("m49");
    expect(w2.moveTo("b").map((e) => e.id)).toEqual([...entries.slice(0, 10).map((e) => e.id), "b"]);
    expect(w2.kept).toBe(10);
    expect(w2.moveTo(null)).toEqual([]);
  });
});

describe("sessionPath", () => {
  it("gives each path entry its own line, on damaged trees too (parents after children, repeated ids)", () => {
    fc.assert(
      fc.property(forest, fc.option(fc.nat(60)), (entries, pick) => {
        const lines = entries.map((_, i) => 10 + 3 * i);
        const session = { entries, lines } as unknown as ParsedSession;
        const leafLine = pick === null ? undefined : lines[pick % entries.length];
        const result = sessionPath(session, leafLine);
        if (!result.ok) throw new Error(result.error);
        const leafId = leafLine === undefined ? entries.at(-1)!.id : entries[lines.indexOf(leafLine)]!.id;
        const byId = new Map<string, SessionEntry>();
        for (let i = entries.length - 1; i >= 0; i--) byId.set(entries[i]!.id, entries[i]!);
        const expected = getPath(byId, leafId);
        expect(result.value.path).toEqual(expected);
        expect(result.value.lines).toEqual(expected.map((e) => lines[entries.indexOf(e)]));
        expect(result.value.leafLine).toBe(result.value.lines.at(-1) ?? null);
      }),
      { numRuns: 500 },
    );
  });
});
