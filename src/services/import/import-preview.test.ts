/**
 * The import's preview of a big file: its newest entries, read from the file's end before the
 * whole file is parsed, are the stored session's last entries; small and older files have none.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TailPreview } from "../../core/session/tail-preview.ts";
import { msg, user } from "../../core/session/test-builders.ts";
import type { CutpointDb } from "../../db/index.ts";
import { freshDb } from "../../test-support/fixture-db.ts";
import { createSessionHandover } from "../session/session-handover.ts";
import { PREVIEW_MIN_BYTES, parseFile } from "./import-service.ts";

let db: CutpointDb;
beforeEach(() => {
  db = freshDb("import-preview");
});
afterEach(() => db.close());

/** A v3 session (or a v1 one, without ids) of about `bytes`, one chain of user messages of ~1 KB each. */
function sessionText(bytes: number, { v1 = false } = {}): string {
  const header = {
    type: "session",
    ...(v1 ? {} : { version: 3 }),
    id: "s-preview",
    timestamp: "2026-01-01T00:00:00.000Z",
    cwd: "/p",
  };
  const lines = [JSON.stringify(header)];
  let size = lines[0]!.length;
  for (let i = 0; size < bytes; i++) {
    const entry = msg(`e${i}`, i === 0 ? null : `e${i - 1}`, user(`${i} ${"word ".repeat(200)}`));
    const line = JSON.stringify(v1 ? { ...entry, id: undefined, parentId: undefined } : entry);
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

describe("the preview of a big file", () => {
  it("comes before the parse is done and holds the last entries that are stored", async () => {
    const file = new File([sessionText(PREVIEW_MIN_BYTES + 200_000)], "big.jsonl");
    const events: string[] = [];
    let preview: TailPreview | undefined;
    const handover = createSessionHandover();
    const parsed = await parseFile(
      db,
      file,
      (phase, fraction) => events.push(`${phase} ${fraction < 1 ? "<1" : "1"}`),
      (p) => {
        preview = p;
        events.push("preview");
      },
      handover,
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    // First, before any progress of the parse.
    expect(events[0]).toBe("preview");
    expect(preview?.header.id).toBe("s-preview");
    expect(preview?.entries).toHaveLength(300);
    const saved = await parsed.value.commit("new");
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    const stored = handover.take(saved.value);
    expect(stored?.entries.slice(-300)).toEqual(preview?.entries);
  });

  it("is not made for a small file, nor for a file that needs migrating", async () => {
    for (const text of [sessionText(100_000), sessionText(PREVIEW_MIN_BYTES + 200_000, { v1: true })]) {
      let previews = 0;
      const parsed = await parseFile(db, new File([text], "f.jsonl"), undefined, () => previews++);
      expect(parsed.ok).toBe(true);
      expect(previews).toBe(0);
    }
  });
});
