/** The waiting prompts: stored while held, claimed once (in any tab), never sent twice. */
import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../../core/session/types.ts";
import { freshDb } from "../../test-support/fixture-db.ts";
import { alreadySent, createPromptWaits } from "./prompt-waits.ts";

const userEntry = (text: string, at: number): SessionEntry =>
  ({
    type: "message",
    id: `u${at}`,
    parentId: null,
    timestamp: new Date(at).toISOString(),
    message: { role: "user", content: [{ type: "text", text }], timestamp: at },
  }) as SessionEntry;

describe("prompt waits", () => {
  it("keeps a held prompt in storage, and lets it go with its run", async () => {
    const db = freshDb("waits-hold");
    const waits = createPromptWaits(db, () => 1000);
    await waits.hold("s1", "hello");
    expect(waits.isHeld("s1")).toBe(true);
    expect(await waits.read("s1")).toEqual({ sessionId: "s1", text: "hello", savedAt: 1000 });
    // Held here: nobody else in this tab claims it (its run sends it).
    expect(await waits.claim("s1")).toBeUndefined();
    await waits.letGo("s1");
    expect(waits.isHeld("s1")).toBe(false);
    expect(await waits.read("s1")).toBeUndefined();
  });

  it("after a reload (a new tab's service), the stored prompt is claimed once", async () => {
    const db = freshDb("waits-claim");
    await createPromptWaits(db, () => 1000).hold("s1", "survives");
    const tabA = createPromptWaits(db);
    const tabB = createPromptWaits(db);
    const [a, b] = await Promise.all([tabA.claim("s1"), tabB.claim("s1")]);
    expect([a?.text, b?.text].filter(Boolean)).toEqual(["survives"]);
    expect(await tabA.read("s1")).toBeUndefined();
  });

  it("a prompt already on the path (sent before the row went) is not sent again", async () => {
    const db = freshDb("waits-sent");
    await createPromptWaits(db, () => 5000).hold("s1", "once");
    const path = [userEntry("earlier once", 1000), userEntry("once", 6000)];
    expect(alreadySent({ sessionId: "s1", text: "once", savedAt: 5000 }, path)).toBe(true);
    expect(alreadySent({ sessionId: "s1", text: "once", savedAt: 9000 }, path)).toBe(false);
    expect(await createPromptWaits(db).claim("s1", path)).toBeUndefined();
    expect(await createPromptWaits(db).read("s1")).toBeUndefined();
  });
});
