/**
 * Forking a session at an entry: the path copied unchanged, the path's labels carried, a move to the
 * target; the fixture's context kept; a valid tree (property); the parent session's id.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildSessionContext } from "./context.ts";
import { serializeSession } from "./export.ts";
import { PI_FIXTURE } from "./fixture-path.ts";
import { forkSessionContents, parentSessionId } from "./fork.ts";
import { displayPositionId, isPositionMarker, MOVE_CUSTOM_TYPE } from "./moves.ts";
import { parseSessionJsonl } from "./parse.ts";
import { assistant, entry, header, msg, user } from "./test-builders.ts";
import { buildTreeIndex, getPath, resolveLabels, resolveLeafId } from "./tree.ts";
import type { SessionEntry } from "./types.ts";

let counter = 0;
const newId = (taken: ReadonlySet<string>) => {
  for (;;) {
    const id = `n${(counter++).toString(16).padStart(7, "0")}`;
    if (!taken.has(id)) return id;
  }
};
const base = {
  newSessionId: "fork-1",
  timestamp: "2026-02-02T00:00:00.000Z",
  parentSession: "sess-1",
  newId,
};

// a -> b -> c -> d ; b -> e -> f (branch); label on c written on the other branch
const tree: SessionEntry[] = [
  msg("a", null, user("first")),
  msg("b", "a", assistant("one")),
  msg("c", "b", user("second")),
  msg("d", "c", assistant("two")),
  msg("e", "b", user("other")),
  msg("f", "e", assistant("other reply")),
  entry("label", "l1", "f", { targetId: "c", label: "checkpoint" }),
  entry("label", "l2", "l1", { targetId: "e", label: "elsewhere" }),
];

describe("forkSessionContents", () => {
  it("copies the path to the entry unchanged, with parentSession and a fresh v3 header", () => {
    const r = forkSessionContents({ ...base, source: { header: header(), entries: tree }, entryId: "d" });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const { header: h, entries, leafId } = r.value;
    expect(h).toEqual({
      type: "session",
      version: 3,
      id: "fork-1",
      timestamp: base.timestamp,
      cwd: "/w",
      parentSession: "sess-1",
    });
    expect(entries.slice(0, 4)).toEqual(tree.slice(0, 4));
    expect(entries.slice(0, 4).every((e, i) => e === tree[i])).toBe(true);
    expect(leafId).toBe("d");
    // The file ends with a move back to d: pi opens it there too.
    expect(displayPositionId(resolveLeafId(entries), buildTreeIndex(entries).byId)).toBe("d");
    // the label of c (written on the other branch) is carried over; e's is not (not on the path)
    expect(resolveLabels(entries)).toEqual(new Map([["c", "checkpoint"]]));
    const added = entries.slice(4);
    expect(added.map((e) => e.type)).toEqual(["label", "custom"]);
    expect(added[0]).toMatchObject({ parentId: "d", targetId: "c", label: "checkpoint" });
    expect(added[1]).toMatchObject({
      customType: MOVE_CUSTOM_TYPE,
      parentId: "d",
      data: { targetId: "d", fromId: added[0]!.id },
    });
  });

  it("a named fork: a session_info entry after the forked entry is its position, the labels follow it", () => {
    const r = forkSessionContents({
      ...base,
      source: { header: header(), entries: tree },
      entryId: "d",
      name: "Fork of first",
    });
    if (!r.ok) throw new Error(r.error.message);
    const { entries, leafId } = r.value;
    const info = entries[4]!;
    expect(info).toMatchObject({ type: "session_info", parentId: "d", name: "Fork of first" });
    expect(leafId).toBe(info.id);
    expect(entries.slice(5).map((e) => e.type)).toEqual(["label", "custom"]);
    expect(entries[5]).toMatchObject({ parentId: info.id, targetId: "c" });
    const index = buildTreeIndex(entries);
    expect(displayPositionId(resolveLeafId(entries), index.byId)).toBe(info.id);
    // The context the fork sends is the path's: the name is not a message.
    expect(buildSessionContext(getPath(index.byId, info.id)).messages).toEqual(
      buildSessionContext(tree.slice(0, 4)).messages,
    );
  });

  it("forks a branch tip without labels to add: nothing but the path", () => {
    const r = forkSessionContents({
      ...base,
      source: { header: header(), entries: tree.slice(0, 6) },
      entryId: "f",
    });
    expect(r.ok && r.value.entries.map((e) => e.id)).toEqual(["a", "b", "e", "f"]);
  });

  it("reports an unknown entry and forks null into an empty session", () => {
    const bad = forkSessionContents({ ...base, source: { header: header(), entries: tree }, entryId: "zz" });
    expect(bad).toEqual({ ok: false, error: { kind: "not-found", message: "No entry zz in this session." } });
    const empty = forkSessionContents({
      ...base,
      source: { header: header(), entries: tree },
      entryId: null,
    });
    expect(empty.ok && empty.value.entries).toEqual([]);
  });

  it("on the real pi fixture: the fork's context equals the source context at that entry", () => {
    const parsed = parseSessionJsonl(readFileSync(PI_FIXTURE, "utf8"));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const { header: h, entries } = parsed.value;
    const index = buildTreeIndex(entries);
    for (const at of [10, 500, entries.length - 1]) {
      const target = entries[at]!;
      const r = forkSessionContents({
        ...base,
        source: { header: h, entries },
        entryId: target.id,
        index,
        parentSession: h.id,
      });
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(r.value.entries.length).toBe(at + 1);
      const forkPath = getPath(buildTreeIndex(r.value.entries).byId, resolveLeafId(r.value.entries));
      expect(buildSessionContext(forkPath)).toEqual(buildSessionContext(getPath(index.byId, target.id)));
      // and it serializes to a file that parses back to the same entries
      const again = parseSessionJsonl(serializeSession(r.value.header, r.value.entries));
      expect(again.ok && again.value.entries).toEqual(r.value.entries);
      expect(again.ok && again.value.header.parentSession).toBe(h.id);
    }
  });

  it("property: valid tree, same path, leaf at the target, labels of the path preserved", () => {
    // Random forest: entry i's parent is one of the earlier entries (or a root); random labels.
    const arb = fc
      .array(fc.tuple(fc.nat(), fc.boolean(), fc.option(fc.nat(), { nil: undefined }), fc.string()), {
        minLength: 1,
        maxLength: 40,
      })
      .chain((specs) => fc.tuple(fc.constant(specs), fc.nat(specs.length - 1)));
    fc.assert(
      fc.property(arb, ([specs, pick]) => {
        const entries: SessionEntry[] = [];
        specs.forEach(([p, root, labelTarget, text], i) => {
          const parentId = i === 0 || root ? null : `e${p % i}`;
          if (labelTarget !== undefined && i > 0) {
            entries.push(entry("label", `e${i}`, parentId, { targetId: `e${labelTarget % i}`, label: text }));
          } else entries.push(msg(`e${i}`, parentId, user(text)));
        });
        const target = entries[pick]!.id;
        const r = forkSessionContents({ ...base, source: { header: header(), entries }, entryId: target });
        if (!r.ok) return false;
        const out = r.value.entries;
        const ids = new Set(out.map((e) => e.id));
        expect(ids.size).toBe(out.length);
        for (const e of out) if (e.parentId !== null) expect(ids.has(e.parentId)).toBe(true);
        const srcPath = getPath(buildTreeIndex(entries).byId, target).map((e) => e.id);
        const outIndex = buildTreeIndex(out);
        const outPath = getPath(outIndex.byId, resolveLeafId(out));
        expect(outPath.filter((e) => !isPositionMarker(e)).map((e) => e.id)).toEqual(srcPath);
        expect(displayPositionId(resolveLeafId(out), outIndex.byId)).toBe(target);
        const want = resolveLabels(entries);
        const got = resolveLabels(out);
        for (const id of srcPath) expect(got.get(id)).toBe(want.get(id));
        return true;
      }),
      { numRuns: 300 },
    );
  });
});

describe("parentSessionId", () => {
  it("reads the id from a pi-style file name or path, and a bare id (older Cutpoint)", () => {
    expect(parentSessionId("2026-03-01T10-20-30-123Z_abc-123.jsonl")).toBe("abc-123");
    expect(parentSessionId("/home/me/.pi/agent/sessions/--w--/2026-03-01T10-20-30-123Z_0192-ab.jsonl")).toBe(
      "0192-ab",
    );
    expect(parentSessionId("C:\\Users\\me\\2026-03-01T10-20-30-123Z_x_y.jsonl")).toBe("x_y");
    expect(parentSessionId("sess-1")).toBe("sess-1");
    expect(parentSessionId("plain.jsonl")).toBe("plain");
  });
  it("is undefined when there is none", () => {
    expect(parentSessionId(undefined)).toBeUndefined();
    expect(parentSessionId("  ")).toBeUndefined();
    expect(parentSessionId(42)).toBeUndefined();
    expect(parentSessionId("/some/dir/notes.txt")).toBeUndefined();
  });
});
