/**
 * Random UUIDs on every page: `crypto.randomUUID` exists only in secure contexts (https,
 * localhost), so a page served over http on a LAN address makes them from `getRandomValues`.
 */
import { uuidV4 } from "../core/session/uuid.ts";

type CryptoLike = { randomUUID?: () => string; getRandomValues?: (a: Uint8Array<ArrayBuffer>) => unknown };

/** A version 4 UUID; `source` is the page's `crypto` unless a test passes another. */
export function randomUuid(source: CryptoLike | undefined = globalThis.crypto): string {
  if (typeof source?.randomUUID === "function") return source.randomUUID();
  const bytes = new Uint8Array(16);
  if (typeof source?.getRandomValues === "function") source.getRandomValues(bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  return uuidV4(bytes);
}
