/**
 * Pins against pi 1.6 as oracle: a pin survives Cutpoint's and pi's own compactions, an unpin is
 * honoured, and a known limit of pi's runtime (it drops sections it did not build).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { piAvailable } from "../../../e2e/lib/pi-oracle.ts";
import { piPrompt, piRuntimePatch } from "../../../e2e/lib/pi-prompt-oracle.ts";
import { buildSessionContext } from "../session/context.ts";
import { serializeSession } from "../session/export.ts";
import { systemMessageText } from "../session/system-prompt.ts";
import { header } from "../session/test-builders.ts";
import type { SessionEntry } from "../session/types.ts";
import { PINNED_RULE, pinnedTwiceCompacted, withPin } from "./pins-test-support.ts";

const DIR = "/tmp/cutpoint-pi-oracle";
let n = 0;

function write(entries: SessionEntry[]): string {
  mkdirSync(DIR, { recursive: true });
  const file = `${DIR}/pins-${process.pid}-${n++}.jsonl`;
  writeFileSync(file, serializeSession(header(), entries));
  return file;
}

describe.skipIf(!piAvailable())(
  "pi 1.6 keeps a pin through compactions (oracle: pi's SessionManager)",
  () => {
    it("after Cutpoint's two compactions, pi's context carries the pin verbatim, as Cutpoint's does", () => {
      const path = pinnedTwiceCompacted();
      const pi = piPrompt(write(path))!;
      expect(pi.compactions).toBe(2);
      expect(pi.roles[0]).toBe("system");
      expect(pi.prompt).toContain(PINNED_RULE);
      expect(pi.prompt).toBe(systemMessageText(buildSessionContext(path).systemMessage));
    });

    it("after two more compactions by pi itself, the pin is still there word for word", () => {
      const pi = piPrompt(write(pinnedTwiceCompacted()), 2)!;
      expect(pi.compactions).toBe(4);
      expect(pi.prompt).toContain(PINNED_RULE);
      expect(pi.sections).toContain("pin-rule");
    });

    it("an unpin is honoured by pi, before and after pi compacts", () => {
      const path = withPin(pinnedTwiceCompacted(), { kind: "remove", section: "pin-rule" }, "up");
      for (const compactions of [0, 2]) {
        const pi = piPrompt(write(path), compactions)!;
        expect(pi.prompt).not.toContain(PINNED_RULE);
        expect(pi.prompt).toContain("You are a test agent.");
        expect(pi.sections).not.toContain("pin-rule");
      }
    });

    it("a known limit: pi's own agent runtime, before its next request, removes the sections it did not build", () => {
      // pi diffs the replayed sections against the prompt it builds; a pin (like Cutpoint's own
      // prompt section) is patched to null there unless pi is given it as a custom section.
      const system = buildSessionContext(pinnedTwiceCompacted()).systemMessage!;
      const patch = piRuntimePatch(system.sections as Record<string, string>)!;
      expect(patch["pin-rule"]).toBeNull();
      expect(patch.prompt).toBeNull();
    });
  },
);
