/**
 * Entries shown before their write commits: after the stored ones, the same array kept on commit,
 * withdrawn, out of order, other sessions' batches, and random sequences of all of these.
 */
import { describe, expect, it } from "vitest";
import { buildMoveEntry } from "../../core/session/moves.ts";
import { entry, header, msg, TS, user } from "../../core/session/test-builders.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import type { LoadedSession } from "../../services/session/loaded-session.ts";
import type { PendingBatch } from "../../services/session/pending-entries.ts";
import { treeData } from "../tree/tree-model.ts";
import { type Held, heldAppended, heldShow, heldWithdraw, shownEntries } from "./pending-entries.ts";

const stored = [msg("u1", null, user("one")), msg("u2", "u1", user("two"))];
const loaded = (entries: SessionEntry[], lastSeq = 1): LoadedSession => ({
  id: "s",
  header: header({ id: "s" }),
  entries,
  generation: 1,
  lastSeq,
});
/** A move (what is shown before its write commits) from the leaf `fromId` to `targetId`. */
const leaf = (id: string, fromId: string, targetId: string) =>
  buildMoveEntry({ id, timestamp: TS, targetId, fromId });
let token = 1;
const batch = (entries: SessionEntry[], sessionId = "s"): PendingBatch => ({
  token: token++,
  sessionId,
  entries,
});
/** The entries as the commit event hands them: parsed back from the stored text (other objects). */
const committed = (entries: SessionEntry[], seq: number) => ({
  sessionId: "s",
  generation: 1,
  seq,
  entries: entries.map((e) => JSON.parse(JSON.stringify(e)) as SessionEntry),
});

describe("pending entries", () => {
  it("are shown after the stored entries; their commit keeps the very array on screen", () => {
    let held: Held = { loaded: loaded(stored), pending: [] };
    expect(shownEntries(held)).toBe(stored);
    const move = leaf("l1", "u2", "u1");
    const b = batch([move]);
    held = heldShow(held, b);
    const view = shownEntries(held)!;
    expect(view.map((e) => e.id)).toEqual(["u1", "u2", "l1"]);
    expect(shownEntries(held)).toBe(view);
    // The view stands where the pending move goes, before and after the commit.
    expect(treeData(view).positionId).toBe("u1");
    expect(held.loaded?.entries).toBe(stored);
    held = heldAppended(held, committed([move], 2));
    expect(held.pending).toEqual([]);
    expect(held.loaded?.lastSeq).toBe(2);
    expect(held.loaded?.entries).toBe(view);
    expect(shownEntries(held)).toBe(view);
    expect(treeData(shownEntries(held)!).positionId).toBe("u1");
  });

  it("a withdrawn batch disappears; the stored entries come back as a new array", () => {
    const b = batch([leaf("l1", "u2", "u1")]);
    let held = heldShow({ loaded: loaded(stored), pending: [] }, b);
    held = heldWithdraw(held, b.token);
    const shown = shownEntries(held)!;
    expect(shown).toEqual(stored);
    expect(shown).not.toBe(stored);
    expect(held.pending).toEqual([]);
    expect(heldWithdraw(held, 999)).toBe(held);
  });

  it("two moves in a row, committed in order, end as the array shown", () => {
    const a = leaf("l1", "u2", "u1");
    const b = leaf("l2", "l1", "u2");
    let held = heldShow(heldShow({ loaded: loaded(stored), pending: [] }, batch([a])), batch([b]));
    const view = shownEntries(held)!;
    expect(view.map((e) => e.id)).toEqual(["u1", "u2", "l1", "l2"]);
    held = heldAppended(held, committed([a], 2));
    expect(shownEntries(held)).toBe(view);
    held = heldAppended(held, committed([b], 3));
    expect(held.loaded?.entries).toBe(view);
    expect(held.pending).toEqual([]);
  });

  it("another append committed first is stored before the pending move, which stays shown", () => {
    const move = leaf("l1", "u2", "u1");
    let held = heldShow({ loaded: loaded(stored), pending: [] }, batch([move]));
    const other = entry("label", "lb", "u2", { targetId: "u1", label: "x" });
    held = heldAppended(held, committed([other], 2));
    expect(held.pending).toHaveLength(1);
    expect(shownEntries(held)!.map((e) => e.id)).toEqual(["u1", "u2", "lb", "l1"]);
    held = heldAppended(held, committed([move], 3));
    expect(held.loaded?.entries.map((e) => e.id)).toEqual(["u1", "u2", "lb", "l1"]);
    expect(held.pending).toEqual([]);
  });

  it("a commit the loaded entries cannot take (a gap) drops the batch; a full load shows it once", () => {
    const move = leaf("l1", "u2", "u1");
    let held = heldShow({ loaded: loaded(stored), pending: [] }, batch([move]));
    // A load that already read the committed move back, before its commit event was heard.
    held = { ...held, loaded: loaded([...stored, move], 2) };
    expect(shownEntries(held)!.map((e) => e.id)).toEqual(["u1", "u2", "l1"]);
    held = heldAppended(held, committed([move], 5));
    expect(held.pending).toEqual([]);
    expect(held.loaded?.lastSeq).toBe(2);
  });

  it("a batch committed out of order (another session's) is done all the same", () => {
    const mine = batch([leaf("l1", "u2", "u1")]);
    const theirs = batch([leaf("x1", "y", "z")], "other");
    let held = heldShow(heldShow({ loaded: loaded(stored), pending: [] }, theirs), mine);
    held = heldAppended(held, committed([...mine.entries], 2));
    expect(held.pending.map((b) => b.token)).toEqual([theirs.token]);
    expect(held.loaded?.entries.map((e) => e.id)).toEqual(["u1", "u2", "l1"]);
    held = heldAppended(held, { ...committed([...theirs.entries], 9), sessionId: "other" });
    expect(held.pending).toEqual([]);
    expect(held.loaded?.lastSeq).toBe(2);
  });

  it("batches of another session are not shown", () => {
    const held = heldShow({ loaded: loaded(stored), pending: [] }, batch([leaf("x", "y", "z")], "other"));
    expect(shownEntries(held)).toBe(stored);
  });

  it("random shows, commits, withdrawals and other appends: stored, then pending, each id once", () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      let held: Held = { loaded: loaded(stored), pending: [] };
      let model: SessionEntry[] = [...stored];
      let seq = 1;
      let open: { token: number; entries: SessionEntry[] }[] = [];
      let n = 0;
      for (let step = 0; step < 12; step++) {
        const op = rand(4);
        if (op === 0) {
          const b = batch([leaf(`p${round}-${n++}`, "u2", "u1")]);
          held = heldShow(held, b);
          open.push({ token: b.token, entries: [...b.entries] });
        } else if (op === 1 && open.length > 0) {
          const [first, ...rest] = open;
          held = heldAppended(held, committed(first!.entries, ++seq));
          model = [...model, ...first!.entries];
          open = rest;
        } else if (op === 2 && open.length > 0) {
          const k = rand(open.length);
          held = heldWithdraw(held, open[k]!.token);
          open = open.filter((_, i) => i !== k);
        } else {
          const other = entry("label", `o${round}-${n++}`, "u2", { targetId: "u1", label: "x" });
          held = heldAppended(held, committed([other], ++seq));
          model = [...model, other];
        }
        const expected = [...model, ...open.flatMap((b) => b.entries)].map((e) => e.id);
        expect(shownEntries(held)!.map((e) => e.id)).toEqual(expected);
        expect(held.loaded?.entries.map((e) => e.id)).toEqual(model.map((e) => e.id));
        expect(held.loaded?.lastSeq).toBe(seq);
      }
    }
  });
});
