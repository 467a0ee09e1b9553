/**
 * pi 1.6 as oracle on moves: files ending with a move, a move before the first entry, a legacy `leaf`
 * entry, moves and a fork on the real fixture; pi stands where Cutpoint does.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { piAvailable, piView } from "../../../e2e/lib/pi-oracle.ts";
import { buildSessionContext } from "./context.ts";
import { serializeSession } from "./export.ts";
import { PI_FIXTURE } from "./fixture-path.ts";
import { forkSessionContents } from "./fork.ts";
import { displayPositionId } from "./moves.ts";
import { parseSessionJsonl } from "./parse.ts";
import { assistant, entry, header, msg, TS, user } from "./test-builders.ts";
import { buildTreeIndex, currentPath, resolveLeafId } from "./tree.ts";
import { move } from "./tree-test-support.ts";
import type { SessionEntry, SessionHeader } from "./types.ts";

const DIR = "/tmp/cutpoint-pi-oracle";
let n = 0;

/** Where Cutpoint and pi 1.6 stand in the same file, and what each would send. */
function both(h: SessionHeader, entries: SessionEntry[]) {
  mkdirSync(DIR, { recursive: true });
  const file = `${DIR}/moves-${process.pid}-${n++}.jsonl`;
  writeFileSync(file, serializeSession(h, entries));
  const pi = piView(file)!;
  const again = parseSessionJsonl(readFileSync(file, "utf8"));
  if (!again.ok) throw new Error(again.error.message);
  const path = currentPath(again.value.entries);
  return {
    pi,
    ours: {
      leafId: resolveLeafId(again.value.entries) ?? null,
      pathIds: path.map((e) => e.id),
      roles: buildSessionContext(path).messages.map((m) => m.role),
    },
    position: displayPositionId(resolveLeafId(again.value.entries), buildTreeIndex(again.value.entries).byId),
  };
}

describe.skipIf(!piAvailable())("pi 1.6 sees the moves (oracle: pi's own SessionManager)", () => {
  const base: SessionEntry[] = [
    msg("u1", null, user("start")),
    msg("a1", "u1", assistant("one")),
    msg("u2", "a1", user("more")),
    msg("a2", "u2", assistant("two")),
  ];

  it("a file ending with a move: pi opens on the move, with the target's context", () => {
    const r = both(header(), [...base, move("m1", "a1", "a2")]);
    expect(r.pi).toEqual(r.ours);
    expect(r.pi.leafId).toBe("m1");
    expect(r.pi.roles).toEqual(["user", "assistant"]);
    expect(r.position).toBe("a1");
  });

  it("a move before the first entry, then a new root message: pi agrees", () => {
    const r = both(header(), [...base, move("m0", null, "a2"), msg("r1", "m0", user("again"))]);
    expect(r.pi).toEqual(r.ours);
    expect(r.pi.roles).toEqual(["user"]);
  });

  it("an older Cutpoint file ending with a `leaf` entry: pi loses the move, Cutpoint keeps it", () => {
    const r = both(header(), [...base, entry("leaf", "L1", "a2", { targetId: "a1" })]);
    expect(r.pi.leafId).toBe("L1");
    expect(r.pi.roles).toEqual(["user", "assistant", "user", "assistant"]);
    expect(r.ours.leafId).toBe("a1");
  });

  it("on the real pi fixture: moves to earlier entries and a fork with labels open where Cutpoint stands", () => {
    const parsed = parseSessionJsonl(readFileSync(PI_FIXTURE, "utf8"));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const { header: h, entries } = parsed.value;
    const leaf = resolveLeafId(entries) ?? null;
    for (const at of [3, 400, 900]) {
      const target = entries[at]!.id;
      const r = both(h, [...entries, move(`mv${at}`, target, leaf)]);
      expect(r.pi).toEqual(r.ours);
      expect(r.position).toBe(target);
    }
    const labelled = [...entries, entry("label", "lb1", leaf, { targetId: entries[5]!.id, label: "x" })];
    const fork = forkSessionContents({
      source: { header: h, entries: labelled },
      entryId: entries[10]!.id,
      newSessionId: "fork-1",
      timestamp: TS,
      parentSession: "2026-01-01T00-00-00-000Z_parent.jsonl",
      newId: (taken) => {
        let k = 0;
        while (taken.has(`n${k}`)) k++;
        return `n${k}`;
      },
    });
    if (!fork.ok) throw new Error(fork.error.message);
    const r = both(fork.value.header, fork.value.entries);
    expect(r.pi).toEqual(r.ours);
    expect(r.position).toBe(entries[10]!.id);
  });
});
