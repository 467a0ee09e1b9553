/** Following an appended file: whole lines only, new entries by id, the listing's summary of a real file. */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FIXTURE_JSONL } from "../compaction/test-fixture.ts";
import { newEntries, summarizeSessionText, takeLines } from "./follow-lines.ts";

describe("takeLines", () => {
  it("keeps an unfinished line for the next read and drops blank lines and CRs", () => {
    const a = takeLines("", '{"a":1}\r\n\n{"b":');
    expect(a).toEqual({ lines: ['{"a":1}'], rest: '{"b":' });
    expect(takeLines(a.rest, "2}\n")).toEqual({ lines: ['{"b":2}'], rest: "" });
  });

  it("gives the same lines however the appended text is cut", () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z{}":0-9]{1,12}$/), { maxLength: 12 }),
        fc.array(fc.nat(200)),
        (ls, cuts) => {
          const text = ls.map((l) => `${l}\n`).join("");
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((x, y) => x - y);
          let rest = "";
          const got: string[] = [];
          let from = 0;
          for (const p of [...points, text.length]) {
            const r = takeLines(rest, text.slice(from, p));
            got.push(...r.lines);
            rest = r.rest;
            from = p;
          }
          expect(got).toEqual(ls);
          expect(rest).toBe("");
        },
      ),
    );
  });
});

describe("newEntries", () => {
  it("takes entries not known yet, skips the header, and says why a line is refused", () => {
    const e = (id: string) =>
      JSON.stringify({ type: "label", id, parentId: null, timestamp: "2026-01-01T00:00:00Z", targetId: "x" });
    const r = newEntries(
      ['{"type":"session","id":"s"}', e("a"), e("b"), e("b"), "nope", "[1]"],
      (id) => id === "a",
    );
    expect(r.entries.map((x) => x.id)).toEqual(["b"]);
    expect(r.problems.map((p) => p.reason)).toEqual([
      "not JSON",
      expect.stringContaining("not a JSON object"),
    ]);
  });
});

describe("summarizeSessionText", () => {
  it("reads the real fixture's header, counts and compactions", () => {
    const text = readFileSync(FIXTURE_JSONL, "utf8");
    const s = summarizeSessionText(text);
    const lines = text.split("\n").filter((l) => l.trim() !== "");
    expect(s.id).toBe(JSON.parse(lines[0]!).id);
    expect(s.entries).toBe(lines.length - 1);
    expect(s.compactions).toBe(lines.filter((l) => JSON.parse(l).type === "compaction").length);
    expect(s.compactions).toBeGreaterThan(0);
    expect(s.firstMessage).toBeTruthy();
  });
});
