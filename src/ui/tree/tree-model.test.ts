/** The open session's tree data: cached per array, extended on append; the timeline's path without moves. */
import { describe, expect, it } from "vitest";
import { buildMoveEntry } from "../../core/session/moves.ts";
import { assistant, msg, TS, user } from "../../core/session/test-builders.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { growTreeIndex, sessionPath, shownPath, treeData } from "./tree-model.ts";

const session: SessionEntry[] = [
  msg("u1", null, user("start")),
  msg("a1", "u1", assistant("one")),
  msg("u2", "a1", user("more")),
  msg("a2", "u2", assistant("two")),
];

describe("the open session's tree data", () => {
  it("is cached per array and extended in place when the next array appends to it", () => {
    const first = treeData(session);
    expect(treeData(session)).toBe(first);
    const moved = [...session, buildMoveEntry({ id: "m1", timestamp: TS, targetId: "a1", fromId: "a2" })];
    const second = treeData(moved);
    expect(second.index).toBe(first.index);
    expect(second.shape).toBe(first.shape); // a move changes no row
    expect(second.positionId).toBe("a1");
    expect(sessionPath(moved).map((e) => e.id)).toEqual(["u1", "a1", "m1"]);
  });

  it("the timeline's path leaves the moves out", () => {
    const entries = [
      ...session,
      buildMoveEntry({ id: "m1", timestamp: TS, targetId: "a1", fromId: "a2" }),
      msg("u3", "m1", user("instead")),
    ];
    const data = treeData(entries);
    expect(shownPath(data).map((e) => e.id)).toEqual(["u1", "a1", "u3"]);
    expect(shownPath(data)).toBe(shownPath(data));
    const plain = treeData(session.slice());
    expect(shownPath(plain)).toBe(plain.path);
  });

  it("takes the index grown while the array filled (a session being read), and only then", () => {
    const filling: SessionEntry[] = [];
    for (const e of session) {
      filling.push(e);
      growTreeIndex(filling);
    }
    const data = treeData(filling);
    expect(data.path.map((e) => e.id)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(data.index.byId.size).toBe(4);
    expect(data.index.children.get("a1")!.map((e) => e.id)).toEqual(["u2"]);
    // A filled array grown a part at a time (`to`), as after a load: the same.
    const read = session.slice();
    growTreeIndex(read, 1);
    growTreeIndex(read, 3);
    growTreeIndex(read, 99);
    expect(treeData(read).path.map((e) => e.id)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(treeData(read).index.order.get("a2")).toBe(3);
    // Grown short of the array's end (entries added after the last call): built afresh, all in.
    const short: SessionEntry[] = [session[0]!];
    growTreeIndex(short);
    short.push(session[1]!);
    expect(treeData(short).index.byId.size).toBe(2);
    expect(treeData(short).path.map((e) => e.id)).toEqual(["u1", "a1"]);
  });
});
