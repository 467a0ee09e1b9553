/** uuidV4: the RFC 9562 layout from any 16 bytes, the same form crypto.randomUUID gives. */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { uuidV4 } from "./uuid.ts";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("uuidV4", () => {
  it("has the version 4 layout for any bytes, and keeps the other 122 bits as given", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (bytes) => {
        const id = uuidV4(bytes);
        expect(id).toMatch(UUID_V4);
        const back = id
          .replace(/-/g, "")
          .match(/../g)!
          .map((h) => Number.parseInt(h, 16));
        back.forEach((x, i) => {
          const mask = i === 6 ? 0x0f : i === 8 ? 0x3f : 0xff;
          expect(x & mask).toBe(bytes[i]! & mask);
        });
      }),
    );
  });

  it("matches the form of the platform's randomUUID", () => {
    expect(randomUUID()).toMatch(UUID_V4);
    expect(uuidV4(new Uint8Array(16))).toBe("00000000-0000-4000-8000-000000000000");
    expect(uuidV4(new Uint8Array(16).fill(255))).toBe("ffffffff-ffff-4fff-bfff-ffffffffffff");
  });
});
