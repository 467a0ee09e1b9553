// What pi 1.6 restores when it continues a session (run by Node 22 with PI16_PACKAGE_DIR): for each
// file argument, the tools pi's AgentSession makes active (its transcript restore) and the prompt its
// context replays (content and sections), as one JSON object per line. pi's session appends to the
// file it opens (e.g. a thinking_level_change), so each file is copied to a scratch folder first and
// only the copy is opened: the files given are never written.
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

const packageDir = process.env.PI16_PACKAGE_DIR;
if (!packageDir) throw new Error("PI16_PACKAGE_DIR is not set: run this script with runWithPi16");
const dist = (file) => pathToFileURL(join(packageDir, "dist", file)).href;
const { createAgentSession } = await import(dist("core/sdk.js"));
const { SessionManager } = await import(dist("core/session-manager.js"));
const { SettingsManager } = await import(dist("core/settings-manager.js"));
const ai = await import(pathToFileURL(join(packageDir, "..", "pi-ai", "dist", "index.js")).href);

const scratch = mkdtempSync(join(tmpdir(), "pi-restore-"));
const agentDir = join(scratch, "agent");
for (const file of process.argv.slice(2)) {
  const copy = join(mkdtempSync(join(scratch, "copy-")), basename(file));
  copyFileSync(file, copy);
  const sessionManager = SessionManager.open(copy, mkdtempSync(join(scratch, "s-")));
  const { session } = await createAgentSession({
    cwd: scratch,
    agentDir,
    sessionManager,
    settingsManager: SettingsManager.inMemory(),
  });
  const system = ai.getCurrentSystemMessage(sessionManager.buildSessionContext().messages);
  process.stdout.write(
    `${JSON.stringify({
      file,
      tools: session.getActiveToolNames(),
      content: system ? ai.contentText(system.content) : null,
      sections: system?.sections ?? {},
    })}\n`,
  );
  session.dispose();
}
