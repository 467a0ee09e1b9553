/**
 * Child process of `npm run bench -- compaction`, run by pi 1.6's Node 22: opens a session file
 * the way pi 1.6 resumes one (SessionManager.open: header scan, loadEntriesFromFile, index) and
 * builds its context (buildSessionContext), then prints one JSON line (phase-timer.ts). pi's
 * package folder comes in PI16_PACKAGE_DIR (runWithPi16 in src/conformance/pi16.ts).
 * Usage: PI16_PACKAGE_DIR=… node e2e/bench/lib/open-pi16.child.ts <file>
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { phaseTimer } from "./phase-timer.ts";

interface PiSessionManager {
  buildSessionContext(): { messages: unknown[] };
  getEntryCount(): number;
}

const file = process.argv[2];
const dir = process.env.PI16_PACKAGE_DIR;
if (!file || !dir) throw new Error("usage: PI16_PACKAGE_DIR=<pi package> open-pi16.child.ts <file>");
const { SessionManager } = (await import(pathToFileURL(join(dir, "dist/core/session-manager.js")).href)) as {
  SessionManager: { open(path: string): PiSessionManager };
};
const timer = phaseTimer();
const session = timer.phase("open", () => SessionManager.open(file));
const context = timer.phase("context", () => session.buildSessionContext());
timer.print({ entries: session.getEntryCount(), messages: context.messages.length });
