// Writes src/conformance/sessions/*.jsonl with pi 1.6's own SessionManager (persisted to a temp dir, then copied); run by Node 22.
import { createHash } from "node:crypto";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resetDeterminism, sessionManager } from "./pi-modules.mjs";
import { DERIVED, RAW } from "./raw-sessions.mjs";
import { SCENARIOS } from "./scenarios.mjs";

const outDir = process.argv[2];
if (!outDir) throw new Error("usage: build-sessions.mjs <sessions-dir>");
mkdirSync(outDir, { recursive: true });
for (const file of readdirSync(outDir)) if (file.endsWith(".jsonl")) rmSync(join(outDir, file));

const scratch = mkdtempSync(join(tmpdir(), "cutpoint-pi16-sessions-"));
try {
  for (const [name, build] of Object.entries(SCENARIOS)) {
    resetDeterminism(name);
    const hex = createHash("sha256").update(`session:${name}`).digest("hex");
    const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    const dir = join(scratch, name);
    const sm = sessionManager.SessionManager.create("/project", dir, { id });
    build(sm);
    copyFileSync(sm.getSessionFile(), join(outDir, `${name}.jsonl`));
    console.log(`session ${name}: ${sm.getEntryCount()} entries`);
  }
  for (const [name, build] of Object.entries(RAW)) {
    writeFileSync(join(outDir, `${name}.jsonl`), build());
    console.log(`session ${name}: written as text (pi 1.6 has no writer for it)`);
  }
  for (const [name, [from, damage]] of Object.entries(DERIVED)) {
    writeFileSync(join(outDir, `${name}.jsonl`), damage(readFileSync(join(outDir, `${from}.jsonl`), "utf8")));
    console.log(`session ${name}: a damaged copy of ${from}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
