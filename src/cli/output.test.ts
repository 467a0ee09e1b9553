// The CLI's buffered output: the same text whether the output takes bytes or text, in few writes, each write's bytes left alone afterwards.
import { describe, expect, it } from "vitest";
import type { CliIo } from "./command.ts";
import { createOutputBuffer } from "./output.ts";

const pieces = [
  ...Array.from({ length: 30_000 }, (_, i) => `{"row":${i},"text":"é… 😀 ${"x".repeat(i % 50)}"}\n`),
  "y".repeat(3 * 1024 * 1024),
  "last line\n",
];

function run(io: CliIo) {
  const out = createOutputBuffer(io);
  for (const p of pieces) out.write(p);
  out.flush();
}

describe("createOutputBuffer", () => {
  it("writes bytes that decode to the pieces, in a few large writes it does not touch again", () => {
    const writes: Uint8Array[] = [];
    const copies: Uint8Array[] = [];
    run({
      out: () => {
        throw new Error("text written to an output that takes bytes");
      },
      err: () => {},
      outBytes: (b) => {
        writes.push(b);
        copies.push(b.slice());
      },
    });
    expect(writes.length).toBeGreaterThan(2);
    expect(writes.length).toBeLessThan(10);
    writes.forEach((w, i) => {
      expect(Buffer.compare(w, copies[i]!)).toBe(0);
    });
    expect(Buffer.concat(writes).toString("utf8")).toBe(pieces.join(""));
  });

  it("gathers text into writes of ~64k characters when the output takes text", () => {
    const writes: string[] = [];
    run({ out: (t) => writes.push(t), err: () => {} });
    expect(writes.join("")).toBe(pieces.join(""));
    expect(writes.length).toBeLessThan(pieces.length / 100);
  });

  it("waits for a slow reader only after a write", async () => {
    let drains = 0;
    const out = createOutputBuffer({ out: () => {}, err: () => {}, drain: async () => void drains++ });
    out.write("a");
    expect(out.unsettled).toBe(false);
    await out.settle();
    out.flush();
    expect(out.unsettled).toBe(true);
    await out.settle();
    expect(out.unsettled).toBe(false);
    expect(drains).toBe(1);
  });
});
