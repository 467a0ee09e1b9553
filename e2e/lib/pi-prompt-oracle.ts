/**
 * pi 1.6 as an oracle for the system prompt: opens a session file with pi's SessionManager,
 * optionally lets pi itself append compactions (each after a user message, keeping only what
 * follows), and reports the system prompt pi's context carries at the leaf, rendered by pi-ai.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PI_MANAGER, PI_NODE, PI_PACKAGE, PI_ROOT, piAvailable } from "./pi-oracle.ts";

const PI_AI = join(PI_ROOT, "@earendil-works/pi-ai/dist/index.js");

export interface PiPromptView {
  /** The replayed system prompt as pi renders it for a request. */
  prompt: string;
  /** Names of its sections, in order. */
  sections: string[];
  /** Roles of the context messages. */
  roles: string[];
  /** How many compaction entries the path holds. */
  compactions: number;
}

/** pi's system prompt at the leaf of `file`, after `compactions` compactions of pi's own. */
export function piPrompt(file: string, compactions = 0): PiPromptView | undefined {
  if (!piAvailable()) return undefined;
  const script = `
    import { SessionManager } from ${JSON.stringify(PI_MANAGER)};
    import { getCurrentSystemMessage, getSystemMessageText } from ${JSON.stringify(PI_AI)};
    const sm = SessionManager.open(process.argv[1], process.argv[2]);
    for (let i = 0; i < Number(process.argv[3]); i++) {
      const kept = sm.appendMessage({ role: "user", content: "pi compaction " + i, timestamp: Date.now() });
      sm.appendCompaction("pi summary " + i, kept, 1000, { readFiles: [], modifiedFiles: [] });
    }
    const ctx = sm.buildSessionContext();
    const system = getCurrentSystemMessage(ctx.messages);
    process.stdout.write(JSON.stringify({
      prompt: system ? getSystemMessageText(system) : "",
      sections: Object.keys(system?.sections ?? {}),
      roles: ctx.messages.map((m) => m.role),
      compactions: sm.getBranch().filter((e) => e.type === "compaction").length,
    }));`;
  const dir = mkdtempSync(join(tmpdir(), "pi-prompt-"));
  const out = execFileSync(PI_NODE, ["--input-type=module", "-e", script, file, dir, String(compactions)], {
    encoding: "utf8",
  });
  return JSON.parse(out) as PiPromptView;
}

const PI_SYSTEM_PROMPT = join(PI_PACKAGE, "dist/core/system-prompt.js");

/**
 * The sections patch pi's own agent runtime would write before its next request on a session
 * whose replayed sections are `sections` (pi diffs them against the prompt it builds itself).
 */
export function piRuntimePatch(sections: Record<string, string>): Record<string, string | null> | undefined {
  if (!piAvailable()) return undefined;
  const script = `
    import { buildSystemPromptSections, diffSystemPromptSections } from ${JSON.stringify(PI_SYSTEM_PROMPT)};
    const patch = diffSystemPromptSections(JSON.parse(process.argv[1]), buildSystemPromptSections({ cwd: "/w" }));
    process.stdout.write(JSON.stringify(patch ?? {}));`;
  const out = execFileSync(PI_NODE, ["--input-type=module", "-e", script, JSON.stringify(sections)], {
    encoding: "utf8",
  });
  return JSON.parse(out) as Record<string, string | null>;
}
