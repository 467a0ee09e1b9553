/**
 * pi 1.6 as an oracle: opens a session file with pi's own SessionManager (run by the Node 22
 * binary installed beside it: src/conformance/pi16.ts, which the unit tests' global setup runs)
 * and reports where pi stands and what it would send. Undefined when that install is not on this
 * machine.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pi16Paths } from "../../src/conformance/pi16.ts";

const PI16 = pi16Paths();
/** The install's node_modules (pi's own dependencies, e.g. pi-ai, are there too). */
export const PI_ROOT = join(PI16.root, "node_modules");
/** The installed pi package. */
export const PI_PACKAGE = PI16.packageDir;
export const PI_NODE = PI16.node;
export const PI_MANAGER = join(PI_PACKAGE, "dist/core/session-manager.js");
const NODE = PI_NODE;
const MANAGER = PI_MANAGER;

export interface PiView {
  /** pi's leaf on load. */
  leafId: string | null;
  /** Ids of the path from a root to the leaf. */
  pathIds: string[];
  /** Roles of the context messages pi builds at the leaf. */
  roles: string[];
}

export const piAvailable = (): boolean => existsSync(NODE) && existsSync(MANAGER);

/** pi's view of the session file at `file` (read only: nothing is appended). */
export function piView(file: string): PiView | undefined {
  if (!piAvailable()) return undefined;
  const script = `
    import { SessionManager } from ${JSON.stringify(MANAGER)};
    const sm = SessionManager.open(process.argv[1], process.argv[2]);
    const ctx = sm.buildSessionContext();
    process.stdout.write(JSON.stringify({
      leafId: sm.getLeafId() ?? null,
      pathIds: sm.getBranch().map((e) => e.id),
      roles: ctx.messages.map((m) => m.role),
    }));`;
  const dir = mkdtempSync(join(tmpdir(), "pi-oracle-"));
  const out = execFileSync(NODE, ["--input-type=module", "-e", script, file, dir], { encoding: "utf8" });
  return JSON.parse(out) as PiView;
}
