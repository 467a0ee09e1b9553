/** The coverage check with a model: the numbered request of the person's messages, the answer as to-dos. */
import { describe, expect, it } from "vitest";
import { assistant, user } from "../session/test-builders.ts";
import { modelCheckRequest, parseModelCheck, personRequests } from "./coverage-model-check.ts";

const ranges = [
  {
    messages: [user("Use pnpm, never npm"), assistant("ok"), user("  "), user("Rename the parser to reader")],
    entryIds: ["u1", "a1", "u2", "u3"],
  },
  { messages: [user("Also keep the tests green")], entryIds: ["u4"] },
];

describe("check with model", () => {
  it("numbers the person's non-empty messages of every range, with their entries", () => {
    expect(personRequests(ranges)).toEqual([
      { n: 1, text: "Use pnpm, never npm", entryId: "u1" },
      { n: 2, text: "Rename the parser to reader", entryId: "u3" },
      { n: 3, text: "Also keep the tests green", entryId: "u4" },
    ]);
    const r = modelCheckRequest(ranges, "## Goal\n- rename");
    expect(r.userMessage).toContain("[2] Rename the parser to reader");
    expect(r.userMessage).toContain("<summary>\n## Goal\n- rename\n</summary>");
  });

  it("reads the numbers of the answer (prose around it, duplicates, unknown numbers) into to-do items", () => {
    const requests = personRequests(ranges);
    const r = parseModelCheck("Sure: [3, 1, 3, 9, 0]", requests);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.items.map((i) => [i.text, i.entryIds, i.kind])).toEqual([
      ["Also keep the tests green", ["u4"], "todo"],
      ["Use pnpm, never npm", ["u1"], "todo"],
    ]);
    expect(parseModelCheck("[]", requests)).toEqual({ ok: true, items: [] });
    expect(parseModelCheck("[1, 2,]", requests).ok).toBe(true);
    expect(parseModelCheck("all good", requests).ok).toBe(false);
  });
});
