/** The tab's pending-entries channel: a shown batch reaches every listener, its withdraw names it, unsubscribed listeners hear nothing. */
import { describe, expect, it } from "vitest";
import { msg, user } from "../../core/session/test-builders.ts";
import { createPendingEntries, type PendingEvent } from "./pending-entries.ts";

describe("createPendingEntries", () => {
  it("shows a batch to every listener, and its withdraw names the same token", () => {
    const pending = createPendingEntries();
    const a: PendingEvent[] = [];
    const b: PendingEvent[] = [];
    pending.on((e) => a.push(e));
    const stopB = pending.on((e) => b.push(e));
    const entry = msg("u1", null, user("one"));
    const withdraw = pending.show("s", [entry]);
    stopB();
    withdraw();
    expect(a.map((e) => e.kind)).toEqual(["show", "withdraw"]);
    const shown = a[0]!;
    if (shown.kind !== "show") throw new Error("first event is not a show");
    expect(shown.batch.sessionId).toBe("s");
    expect(shown.batch.entries).toEqual([entry]);
    expect(a[1]).toEqual({ kind: "withdraw", token: shown.batch.token });
    expect(b.map((e) => e.kind)).toEqual(["show"]);
  });

  it("gives each batch its own token, and two channels do not hear each other", () => {
    const one = createPendingEntries();
    const two = createPendingEntries();
    const heard: PendingEvent[] = [];
    two.on((e) => heard.push(e));
    one.show("s", []);
    one.show("s", []);
    expect(heard).toEqual([]);
    const tokens: number[] = [];
    one.on((e) => e.kind === "show" && tokens.push(e.batch.token));
    one.show("s", []);
    one.show("s", []);
    expect(new Set(tokens).size).toBe(2);
  });
});
