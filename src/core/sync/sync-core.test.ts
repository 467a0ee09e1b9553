// Unit tests of the sync layout, chunk format, push plan and manifests.
import { describe, expect, it } from "vitest";
import { buildMoveEntry } from "../session/moves.ts";
import type { SessionEntry, SessionHeader } from "../session/types.ts";
import {
  chunkBody,
  decodeChunk,
  decodeChunkSteps,
  encodeChunk,
  encodeChunkLines,
  lineRanges,
  sealChunkLines,
} from "./chunk-format.ts";
import { chunkKey, deviceOfManifest, manifestKey, normalizePrefix } from "./layout.ts";
import {
  type DeviceManifest,
  deletedElsewhere,
  parseManifest,
  remoteSessions,
  unreadChunks,
} from "./manifest.ts";
import { planItem, planPush, waitingCount } from "./push-plan.ts";

const msg = (id: string, parentId: string | null): SessionEntry => ({
  type: "message",
  id,
  parentId,
  timestamp: "2026-12-06T00:00:00.000Z",
  message: { role: "user", content: `text ${id}`, timestamp: 0 },
});
const move = (id: string, targetId: string) =>
  buildMoveEntry({ id, targetId, fromId: null, timestamp: "2026-12-06T00:00:00.000Z" });
const header: SessionHeader = { type: "session", id: "s1", timestamp: "2026-12-06T00:00:00.000Z", cwd: "/w" };

describe("layout", () => {
  it("names objects by device, session and a sortable seq", () => {
    expect(chunkKey("s1", "devA", 12)).toBe("cutpoint-sync/v1/chunks/s1/devA.00000012");
    expect(deviceOfManifest(manifestKey("devA"))).toBe("devA");
    expect(deviceOfManifest("cutpoint-sync/v1/manifests/x.tmp")).toBeUndefined();
    expect(normalizePrefix("/team/a/")).toBe("team/a/");
    expect(normalizePrefix("  ")).toBe("");
  });
});

describe("chunk format", () => {
  const head = { session: "s1", device: "devA", seq: 3 };
  it("reads back what it wrote", () => {
    const text = encodeChunk(head, [msg("a", null), msg("b", "a")]);
    const entries = [msg("a", null), msg("b", "a")];
    expect(decodeChunk(text, head)).toEqual({
      ok: true,
      entries,
      lines: entries.map((e) => JSON.stringify(e)),
    });
  });
  it("encodes stored lines as they are, and decodes a big chunk in steps", () => {
    const entries = Array.from({ length: 1000 }, (_, i) => msg(`e${i}`, i === 0 ? null : `e${i - 1}`));
    const lines = entries.map((e) => JSON.stringify(e));
    const text = encodeChunkLines(head, lines);
    expect(text).toBe(encodeChunk(head, entries));
    // In pieces of whole lines, as a reader decodes an object.
    const cut = text.indexOf("\n", text.length / 2) + 1;
    const steps = decodeChunkSteps([text.slice(0, cut), text.slice(cut)], head);
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    expect(yields).toBeGreaterThan(10);
    expect(step.value).toEqual({ ok: true, entries, lines });
    expect(decodeChunk(encodeChunkLines(head, []), head)).toEqual({ ok: true, entries: [], lines: [] });
    // Sealed from the lines' bytes: the text's UTF-8, non-ASCII text included.
    const wide = [...lines, JSON.stringify(msg("ü", "e999")), JSON.stringify(msg("😀", "ü"))];
    const utf8 = new TextEncoder();
    const bytes = sealChunkLines(
      head,
      wide.map((l) => utf8.encode(l)),
    );
    expect(new TextDecoder().decode(bytes)).toBe(encodeChunkLines(head, wide));
    // Its lines found in the bytes are the lines sealed, and its body is them as stored.
    const found = [...lineRanges(bytes)].map(([a, b]) => new TextDecoder().decode(bytes.subarray(a, b)));
    expect(found.slice(1)).toEqual(wide);
    const body = chunkBody(bytes, wide.length);
    expect(new TextDecoder().decode(body)).toBe(`${wide.join("\n")}\n`);
    expect(chunkBody(bytes, wide.length - 1)).toBeUndefined();
    expect(chunkBody(bytes.subarray(0, bytes.length - 1), wide.length)).toBeUndefined();
  });
  it("refuses a half-written object and one read under another name", () => {
    const text = encodeChunk(head, [msg("a", null), msg("b", "a")]);
    expect(decodeChunk(text.slice(0, text.length - 10), head).ok).toBe(false);
    const cutAtLine = text.slice(0, text.lastIndexOf("\n", text.length - 2) + 1);
    expect(decodeChunk(cutAtLine, head)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/incomplete/),
    });
    expect(decodeChunk(text, { ...head, seq: 4 }).ok).toBe(false);
  });
});

describe("push plan", () => {
  it("keeps a trailing move back and sends it once something hangs below it", () => {
    const first = planPush([], [msg("a", null), msg("b", "a"), move("m", "a")]);
    expect(first.send.map((e) => e.id)).toEqual(["a", "b"]);
    expect(first.held.map((e) => e.id)).toEqual(["m"]);
    expect(waitingCount([move("m", "a")].map(planItem))).toBe(0);
    expect(waitingCount([msg("a", null), move("m", "a")].map(planItem))).toBe(1);
    const second = planPush(first.held, [msg("c", "m")]);
    expect(second.send.map((e) => e.id)).toEqual(["m", "c"]);
    expect(second.held).toEqual([]);
  });
});

describe("manifests", () => {
  const m = (device: string, chunks: number, deletedAt?: number): DeviceManifest => ({
    cutpointSync: 1,
    device,
    sessions: {
      s1: {
        header,
        chunks,
        entries: chunks * 2,
        bytes: 100,
        title: `t-${device}`,
        ...(deletedAt ? { deletedAt } : {}),
      },
    },
  });
  it("parses only the named device's manifest", () => {
    expect(parseManifest(JSON.stringify(m("A", 1)), "A").ok).toBe(true);
    expect(parseManifest(JSON.stringify(m("A", 1)), "B").ok).toBe(false);
    expect(parseManifest('{"cutpointSync":1,', "A").ok).toBe(false);
  });
  it("lists the chunks other devices wrote past what was read", () => {
    expect(unreadChunks([m("A", 3), m("B", 2), m("C", 1)], "s1", "A", { B: 1 })).toEqual([
      { device: "B", seq: 2 },
      { device: "C", seq: 1 },
    ]);
  });
  it("combines devices into one session; a tombstone anywhere else marks it deleted", () => {
    const list = remoteSessions([m("A", 3), m("B", 2, 5)]);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: "s1", entries: 10, devices: ["A", "B"], deleted: true });
    expect(deletedElsewhere([m("A", 3), m("B", 2, 5)], "s1", "A")).toBe(true);
    expect(deletedElsewhere([m("A", 3, 5), m("B", 2)], "s1", "A")).toBe(false);
  });
});
