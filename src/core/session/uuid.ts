/** A version 4 UUID from 16 random bytes (RFC 9562), for pages that have no crypto.randomUUID. */

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/**
 * The UUID whose random bits are the first 16 bytes of `random` (missing bytes count as 0; the
 * version and variant bits are set here).
 */
export function uuidV4(random: Uint8Array): string {
  const b = Array.from({ length: 16 }, (_, i) => random[i] ?? 0);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.map((x) => HEX[x]!);
  return `${h.slice(0, 4).join("")}-${h.slice(4, 6).join("")}-${h.slice(6, 8).join("")}-${h.slice(8, 10).join("")}-${h.slice(10).join("")}`;
}
