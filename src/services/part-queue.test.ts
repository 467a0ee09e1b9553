/**
 * Unit tests of the part queue: parts in order until the end, a failure after the parts before
 * it, the reader's start and early stop told to the sender.
 */
import { describe, expect, it, vi } from "vitest";
import { msg, user } from "../core/session/test-builders.ts";
import { createPartQueue } from "./part-queue.ts";
import type { ReadPart } from "./session-read-protocol.ts";

const part = (seq: number): ReadPart => ({ kind: "text", text: `line ${seq}\n`, seq });

async function collect(parts: AsyncIterable<ReadPart>, max = Number.POSITIVE_INFINITY): Promise<ReadPart[]> {
  const out: ReadPart[] = [];
  for await (const p of parts) {
    out.push(p);
    if (out.length >= max) break;
  }
  return out;
}

describe("part queue", () => {
  it("hands out the parts pushed before and while it is read, in order, until the end", async () => {
    const queue = createPartQueue();
    queue.push(part(1));
    const reading = collect(queue);
    await Promise.resolve();
    queue.push(part(2));
    setTimeout(() => {
      queue.push({ kind: "entries", entries: [msg("a", null, user("hi"))], seq: 3 });
      queue.end();
      queue.push(part(4));
    }, 1);
    expect((await reading).map((p) => (p.kind === "replaced" ? 0 : p.seq))).toEqual([1, 2, 3]);
  });

  it("a failure reaches the reader after the parts before it", async () => {
    const queue = createPartQueue();
    queue.push(part(1));
    queue.fail(new Error("worker died"));
    const seen: ReadPart[] = [];
    await expect(
      (async () => {
        for await (const p of queue) seen.push(p);
      })(),
    ).rejects.toThrow("worker died");
    expect(seen).toEqual([part(1)]);
  });

  it("tells the sender when the reader starts, and when it stops early or never reads", async () => {
    const onStop = vi.fn();
    const onStart = vi.fn();
    const queue = createPartQueue(onStop, onStart);
    queue.push(part(1));
    queue.push(part(2));
    expect(onStart).not.toHaveBeenCalled();
    expect(await collect(queue, 1)).toEqual([part(1)]);
    expect(onStart).toHaveBeenCalledTimes(1);
    expect(onStop).toHaveBeenCalledTimes(1);
    const unread = vi.fn();
    createPartQueue(unread).stop();
    expect(unread).toHaveBeenCalledTimes(1);
  });
});
