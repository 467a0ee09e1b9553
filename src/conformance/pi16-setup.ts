/**
 * Vitest global setup: installs pi 1.6 and its Node 22 once, before any test file loads (pi16.ts),
 * so that the tests that ask pi itself (the *.pi.test.ts files, e2e/lib/pi-oracle.ts) find it on
 * a fresh machine instead of skipping. Reuses an install that is there already.
 */
import { ensurePi16 } from "./pi16.ts";

export default function setup(): void {
  ensurePi16();
}
