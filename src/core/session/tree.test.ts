/**
 * The session tree: index, the leaf (legacy `leaf` entries too), root-first paths through missing parents,
 * cycles and a 200k chain, the current path (property), labels and the session name.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { entry, msg, user } from "./test-builders.ts";
import {
  buildTreeIndex,
  currentPath,
  getPath,
  getSessionName,
  resolveLabels,
  resolveLeafId,
} from "./tree.ts";
import type { SessionEntry } from "./types.ts";

// a -> b -> c, b -> d (branch), second root r -> s
const forest: SessionEntry[] = [
  msg("a", null, user("a")),
  msg("b", "a", user("b")),
  msg("c", "b", user("c")),
  msg("d", "b", user("d")),
  msg("r", null, user("r")),
  msg("s", "r", user("s")),
];

describe("buildTreeIndex", () => {
  it("indexes ids, file order and children in file order, with several roots", () => {
    const index = buildTreeIndex(forest);
    expect(index.byId.get("c")?.id).toBe("c");
    expect(index.order.get("a")).toBe(0);
    expect(index.order.get("s")).toBe(5);
    expect(index.children.get(null)?.map((e) => e.id)).toEqual(["a", "r"]);
    expect(index.children.get("b")?.map((e) => e.id)).toEqual(["c", "d"]);
    expect(index.children.get("c")).toBeUndefined();
  });
});

describe("resolveLeafId", () => {
  it("is undefined without entries and the last entry otherwise, whatever its type", () => {
    expect(resolveLeafId([])).toBeUndefined();
    expect(resolveLeafId(forest)).toBe("s");
    expect(resolveLeafId([...forest, entry("custom", "x", "s", { customType: "t" })])).toBe("x");
  });

  it("follows a trailing leaf entry, including a null target", () => {
    expect(resolveLeafId([...forest, entry("leaf", "L", "s", { targetId: "c" })])).toBe("c");
    expect(resolveLeafId([...forest, entry("leaf", "L", "s", { targetId: null })])).toBeNull();
  });

  it("a leaf entry followed by another entry: the later entry is the leaf", () => {
    const entries = [...forest, entry("leaf", "L", "s", { targetId: "c" }), msg("e", "c", user("e"))];
    expect(resolveLeafId(entries)).toBe("e");
  });
});

describe("getPath", () => {
  const { byId } = buildTreeIndex(forest);
  it("returns root-first paths on each branch", () => {
    expect(getPath(byId, "c").map((e) => e.id)).toEqual(["a", "b", "c"]);
    expect(getPath(byId, "d").map((e) => e.id)).toEqual(["a", "b", "d"]);
    expect(getPath(byId, "s").map((e) => e.id)).toEqual(["r", "s"]);
  });

  it("is empty for null, undefined or an unknown leaf", () => {
    expect(getPath(byId, null)).toEqual([]);
    expect(getPath(byId, undefined)).toEqual([]);
    expect(getPath(byId, "nope")).toEqual([]);
  });

  it("stops at a missing parent and at a cycle", () => {
    const orphan = buildTreeIndex([msg("x", "missing", user("x")), msg("y", "x", user("y"))]);
    expect(getPath(orphan.byId, "y").map((e) => e.id)).toEqual(["x", "y"]);
    const cyclic = buildTreeIndex([msg("p", "q", user("p")), msg("q", "p", user("q"))]);
    expect(getPath(cyclic.byId, "q").map((e) => e.id)).toEqual(["p", "q"]);
  });

  it("walks a 200k-entry chain with one lookup per entry (linear, no timing)", () => {
    const n = 200_000;
    const entries: SessionEntry[] = [];
    for (let i = 0; i < n; i++) entries.push(msg(`e${i}`, i === 0 ? null : `e${i - 1}`, user("x")));
    let lookups = 0;
    class CountingMap extends Map<string, SessionEntry> {
      override get(key: string): SessionEntry | undefined {
        lookups++;
        return super.get(key);
      }
    }
    const byId = new CountingMap(buildTreeIndex(entries).byId);
    const path = getPath(byId, `e${n - 1}`);
    expect(path.length).toBe(n);
    expect(path[0]?.id).toBe("e0");
    expect(path[n - 1]?.id).toBe(`e${n - 1}`);
    expect(lookups).toBe(n);
  });

  it("property: the path of any entry in a random tree starts at a root and follows parent links", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 60 }), (parents) => {
        const entries = parents.map((p, i) =>
          msg(`n${i}`, i === 0 || p % (i + 1) === i ? null : `n${p % i}`, user(String(i))),
        );
        const { byId } = buildTreeIndex(entries);
        for (const e of entries) {
          const path = getPath(byId, e.id);
          expect(path[0]?.parentId).toBeNull();
          expect(path[path.length - 1]?.id).toBe(e.id);
          for (let i = 1; i < path.length; i++) expect(path[i]?.parentId).toBe(path[i - 1]?.id);
        }
      }),
    );
  });
});

describe("currentPath", () => {
  it("property: the path to the leaf on load, with or without an index, duplicate ids and leaf entries included", () => {
    const entryArb = fc.record({
      id: fc.constantFrom("a", "b", "c", "d", "e", "f"),
      parent: fc.option(fc.constantFrom("a", "b", "c", "d", "e", "f", "zz"), { nil: null }),
      leaf: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(entryArb, { maxLength: 30 }), (raw) => {
        const entries: SessionEntry[] = raw.map((r, i) =>
          r.leaf
            ? { type: "leaf", id: `${r.id}${i}`, parentId: r.parent, timestamp: "", targetId: r.parent }
            : { type: "custom", id: r.id, parentId: r.parent, timestamp: "", customType: "x" },
        );
        const index = buildTreeIndex(entries);
        const expected = getPath(index.byId, resolveLeafId(entries) ?? null);
        expect(currentPath(entries)).toEqual(expected);
        expect(currentPath(entries, index)).toEqual(expected);
      }),
    );
  });
});

describe("resolveLabels", () => {
  it("last label per target wins over the whole file; empty or absent clears", () => {
    const labels = resolveLabels([
      ...forest,
      entry("label", "l1", "s", { targetId: "a", label: "first" }),
      entry("label", "l2", "l1", { targetId: "a", label: "second" }),
      entry("label", "l3", "l2", { targetId: "c", label: "on other branch" }),
      entry("label", "l4", "l3", { targetId: "d", label: "gone" }),
      entry("label", "l5", "l4", { targetId: "d", label: "" }),
      entry("label", "l6", "l5", { targetId: "b", label: "b" }),
      entry("label", "l7", "l6", { targetId: "b" }),
    ]);
    expect([...labels]).toEqual([
      ["a", "second"],
      ["c", "on other branch"],
    ]);
  });
});

describe("getSessionName", () => {
  it("takes the latest session_info name, trimmed; empty clears", () => {
    expect(getSessionName(forest)).toBeUndefined();
    const named = [...forest, entry("session_info", "i1", "s", { name: "  My work " })];
    expect(getSessionName(named)).toBe("My work");
    const renamed = [...named, entry("session_info", "i2", "i1", { name: "Other" })];
    expect(getSessionName(renamed)).toBe("Other");
    expect(getSessionName([...renamed, entry("session_info", "i3", "i2", { name: "   " })])).toBeUndefined();
    expect(getSessionName([...renamed, entry("session_info", "i3", "i2", {})])).toBeUndefined();
  });
});
