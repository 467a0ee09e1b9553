// Loads pi 1.6's own modules (from PI16_PACKAGE_DIR) and makes its clock and ids deterministic; run by Node 22.
import crypto, { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const packageDir = process.env.PI16_PACKAGE_DIR;
if (!packageDir)
  throw new Error("PI16_PACKAGE_DIR is not set: run this script through src/conformance/refresh.ts");

function firstExisting(candidates) {
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`none of these exist: ${candidates.join(", ")}`);
  return pathToFileURL(found).href;
}

const dist = (file) => pathToFileURL(join(packageDir, "dist", file)).href;
const piAi = firstExisting([
  join(packageDir, "node_modules", "@earendil-works", "pi-ai", "dist", "index.js"),
  join(packageDir, "..", "pi-ai", "dist", "index.js"),
]);

export const sessionManager = await import(dist("core/session-manager.js"));
export const compaction = await import(dist("core/compaction/index.js"));
export const messages = await import(dist("core/messages.js"));
export const ai = await import(piAi);
export const piPackage = JSON.parse(
  await (await import("node:fs/promises")).readFile(join(packageDir, "package.json"), "utf8"),
);

// --- Deterministic clock and ids -------------------------------------------------------------
// pi stamps entries with `new Date()` and makes ids with crypto.randomUUID(); both are replaced
// here so that a refresh writes byte-identical session files.

const RealDate = Date;
let clockMs = 0;
let idSeed = "";
let idCounter = 0;

class FixedClockDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) {
      clockMs += 1000;
      super(clockMs);
    } else {
      super(...args);
    }
  }
  static now() {
    clockMs += 1000;
    return clockMs;
  }
}

/** Restarts the fixed clock and the id sequence (call once per session so each file is stable on its own). */
export function resetDeterminism(seed, startIso = "2026-12-01T09:00:00.000Z") {
  clockMs = RealDate.parse(startIso);
  idSeed = seed;
  idCounter = 0;
}

function deterministicUuid() {
  idCounter += 1;
  const hex = createHash("sha256").update(`${idSeed}:${idCounter}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

globalThis.Date = FixedClockDate;
crypto.randomUUID = deterministicUuid;
syncBuiltinESMExports();
resetDeterminism("unset");
