/** randomUuid: the platform's randomUUID where it exists, else a v4 UUID from getRandomValues. */
import { webcrypto } from "node:crypto";
import { describe, expect, it } from "vitest";
import { randomUuid } from "./random-id.ts";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("randomUuid", () => {
  it("uses crypto.randomUUID where the page has it", () => {
    expect(randomUuid({ randomUUID: () => "from-the-platform" })).toBe("from-the-platform");
  });

  it("makes distinct v4 UUIDs on a page without randomUUID (http on a LAN address)", () => {
    const insecure = { getRandomValues: (a: Uint8Array<ArrayBuffer>) => webcrypto.getRandomValues(a) };
    const ids = new Set(Array.from({ length: 1000 }, () => randomUuid(insecure)));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(UUID_V4);
  });

  it("still answers with neither (no crypto object worth the name)", () => {
    expect(randomUuid({})).toMatch(UUID_V4);
  });
});
