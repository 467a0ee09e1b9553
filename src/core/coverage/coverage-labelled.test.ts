/**
 * The extraction's precision and recall on a hand-labelled sample of the pi fixture: every item
 * found at the model's two cuts (lines 360 and 629), each judged by reading the session as one a
 * handoff should carry ("key") or not ("noise"); and the things a reader of those ranges would
 * expect a summary to carry, judged the same way, to see which the extraction finds. Prints the
 * figures; the floors are the measured values, rounded down (docs/summaries.md).
 */
import { describe, expect, it } from "vitest";
import { loadFixture, planAtModelCut } from "../compaction/test-fixture.ts";
import { type CoverageCandidate, KEY_WEIGHT, planCoverageItems } from "./coverage.ts";
import type { CoverageKind } from "./coverage-kinds.ts";

type Label = "key" | "noise";
/** An item as found: its kind, the start of its text, the label. */
type Judged = [CoverageKind, string, Label];
/** What a summary should carry: a short description, the kinds it may be found as, a text the item holds. */
type Expected = [string, readonly CoverageKind[], string];

const ROOT = "/Users/badlogic/workspaces/pi-mono/packages/coding-agent/";

const JUDGED: Record<number, Judged[]> = {
  360: [
    ["file", `${ROOT}src/main.ts`, "key"],
    ["file", `${ROOT}src/tui/tui-renderer.ts`, "key"],
    ["file", "packages/coding-agent/src/core/setup.ts", "key"],
    ["file", "interactive/command-handler.ts", "key"],
    ["file", "interactive/selector-manager.ts", "key"],
    ["identifier", "AgentSession", "key"],
    ["file", "src/modes/interactive-mode.ts", "key"],
    ["command", "git checkout -b refactor", "key"],
    ["instruction", "this plan must be written in such a way", "key"],
    // "contexT": a typo read as a name.
    ["identifier", "contexT", "noise"],
    ["file", `${ROOT}docs`, "noise"],
    ["file", `${ROOT}docs/refactor.md`, "key"],
    ["command", "git add packages/coding-agent/docs/refactor.md", "noise"],
    ["command", "git commit", "noise"],
    ["identifier", "messages()", "key"],
    ["identifier", "AppMessage", "key"],
    ["file", `${ROOT}src/messages.ts`, "key"],
    ["file", `${ROOT}src/core`, "noise"],
    ["file", `${ROOT}src/core/bash-executor.ts`, "key"],
    ["file", `${ROOT}src/core/index.ts`, "key"],
    ["command", "npm run check", "key"],
    ["command", "git add", "noise"],
    ["file", `${ROOT}src/core/agent-session.ts`, "key"],
    [
      "error",
      "Could not find the exact text in /Users/badlogic/workspaces/pi-mono/packages/coding-agent/src/core/index.ts",
      "key",
    ],
    ["error", "../coding-agent/src/core/agent-session.ts(16,58): error TS2305", "key"],
    [
      "error",
      "Could not find the exact text in /Users/badlogic/workspaces/pi-mono/packages/coding-agent/src/core/agent-session.ts",
      "key",
    ],
    // A doc comment of the checker's output taken as the error line.
    ["error", "216 │ * @throws Error", "noise"],
    ["error", "../coding-agent/src/core/agent-session.ts(532,34): error TS2339", "key"],
    ["file", `${ROOT}src/session-manager.ts`, "key"],
    ["file", `${ROOT}src/modes`, "noise"],
    ["file", `${ROOT}src/modes/print-mode.ts`, "key"],
    ["file", `${ROOT}src/modes/rpc-mode.ts`, "key"],
    ["file", `${ROOT}src/modes/index.ts`, "key"],
  ],
  629: [
    ["file", `${ROOT}src/main.ts`, "key"],
    ["file", `${ROOT}src/main-new.ts`, "key"],
    ["command", "npm run check", "key"],
    ["file", `${ROOT}src/cli-new.ts`, "key"],
    ["file", `${ROOT}docs/refactor.md`, "key"],
    ["command", "git add", "noise"],
    ["command", "git commit", "noise"],
    ["instruction", "you can look up the detailed history of this session", "key"],
    ["file", "/Users/badlogic/.pi/agent/sessions/", "key"],
    ["file", `${ROOT}src/tui/tui-renderer.ts`, "key"],
    ["file", `${ROOT}src/modes/interactive`, "key"],
    ["file", `${ROOT}src/modes/interactive/interactive-mode.ts`, "key"],
    // A read of the home directory, not of the work.
    ["file", "/Users/badlogic", "noise"],
    ["command", "npx tsgo", "key"],
    ["identifier", "collapseChangelog", "key"],
    ["file", `${ROOT}src/core/agent-session.ts`, "key"],
    // The person's misspelling of tui-renderer.ts.
    ["file", "tui-rendering.ts", "noise"],
    ["file", `${ROOT}src/modes/index.ts`, "key"],
    ["instruction", "i can live with main-new.ts and cli-new.ts in src/", "key"],
    ["file", `${ROOT}src/modes/interactive/components`, "key"],
    ["error", "Command aborted", "noise"],
    ["file", "main.ts/tui-renderer.ts", "noise"],
    ["command", "git checkout -- .", "key"],
    ["file", "modes/interactive/theme", "key"],
    ["file", "changelog.ts", "key"],
    ["file", "clipboard.ts", "key"],
    ["file", "config.ts", "key"],
    ["file", "fuzzy.ts", "key"],
    ["file", "tools-manager.ts", "key"],
  ],
};

const EXPECTED: Record<number, Expected[]> = {
  360: [
    ["main.ts, read in full", ["file"], "src/main.ts"],
    ["tui-renderer.ts, read in full", ["file"], "tui-renderer.ts"],
    ["the plan written", ["file"], "docs/refactor.md"],
    ["agent-session.ts changed", ["file"], "core/agent-session.ts"],
    ["bash-executor.ts changed", ["file"], "core/bash-executor.ts"],
    ["core/index.ts changed", ["file"], "core/index.ts"],
    ["print-mode.ts changed", ["file"], "modes/print-mode.ts"],
    ["rpc-mode.ts changed", ["file"], "modes/rpc-mode.ts"],
    ["modes/index.ts changed", ["file"], "modes/index.ts"],
    ["the new class", ["identifier"], "agentsession"],
    ["the message type asked about", ["identifier"], "appmessage"],
    ["the getter asked about", ["identifier"], "messages()"],
    ["the branch", ["command"], "git checkout -b refactor"],
    ["the check command", ["command"], "npm run check"],
    ["rule: a new session can pick up from the plan", ["instruction"], "pick up from where you left"],
    ["rule: only e2e tests for AgentSession", ["instruction"], "e2e tests"],
    [
      "rule: keep the old code, new entry points main-new and cli-new",
      ["instruction", "identifier", "value"],
      "main-new",
    ],
    ["rule: event listeners survive unsubscribe", ["instruction"], "listener"],
    ["the new name of tui-renderer", ["file", "identifier"], "interactive-mode"],
  ],
  629: [
    ["main-new.ts written", ["file"], "src/main-new.ts"],
    ["cli-new.ts written", ["file"], "src/cli-new.ts"],
    ["the plan updated", ["file"], "docs/refactor.md"],
    ["interactive-mode.ts written", ["file"], "interactive/interactive-mode.ts"],
    ["modes/index.ts changed", ["file"], "modes/index.ts"],
    ["rule: the new code self-contained beside the old", ["instruction"], "main-new.ts and cli-new.ts"],
    ["rule: copy the tui components to modes/interactive", ["instruction"], "copy the tui components"],
    ["layout: theme to modes/interactive/theme", ["file"], "modes/interactive/theme"],
    ["layout: tools to core/tools", ["file", "identifier"], "core/tools"],
    ["the setting asked about", ["identifier"], "collapsechangelog"],
    ["slash commands belong to AgentSession", ["instruction", "todo"], "slash commands"],
    ["where the session's history is", ["instruction", "file"], ".pi/agent/sessions"],
    ["the revert", ["command"], "git checkout -- ."],
    ["agent-session.ts read in full", ["file"], "core/agent-session.ts"],
  ],
};

const fixture = loadFixture();

function itemsAt(line: number): CoverageCandidate[] {
  return planCoverageItems(planAtModelCut(fixture, line).plan);
}

const ratio = (a: number, b: number) => `${a}/${b} = ${(a / Math.max(1, b)).toFixed(2)}`;

describe("the extraction against a hand-labelled sample of the pi fixture", () => {
  it("precision on every item found at both cuts, recall of what a reader expects; floors as measured", () => {
    let judged = 0;
    let key = 0;
    let keyTier = 0;
    let keyTierKey = 0;
    const unlabelled: string[] = [];
    let expected = 0;
    let found = 0;
    const missed: string[] = [];
    for (const line of [360, 629]) {
      const items = itemsAt(line);
      for (const item of items) {
        // Errors and rules by the start of their text (and a folder ending with /), the rest exactly.
        const label = JUDGED[line]!.find(([kind, text]) => {
          if (kind !== item.kind) return false;
          const byStart = kind === "error" || kind === "instruction" || text.endsWith("/");
          return byStart ? item.text.startsWith(text) : item.text === text;
        });
        if (!label) {
          unlabelled.push(`${line} ${item.kind} ${item.text}`);
          continue;
        }
        judged++;
        if (label[2] === "key") key++;
        // The items the figure counts as key (not resolved, weight 2 or more).
        if (!item.resolved && (item.weight ?? 0) >= KEY_WEIGHT) {
          keyTier++;
          if (label[2] === "key") keyTierKey++;
        }
      }
      for (const [what, kinds, needle] of EXPECTED[line]!) {
        expected++;
        if (items.some((i) => kinds.includes(i.kind) && i.text.toLowerCase().includes(needle))) found++;
        else missed.push(`${line}: ${what}`);
      }
    }
    console.log(
      `extraction on the labelled sample: precision ${ratio(key, judged)} (all items), ` +
        `${ratio(keyTierKey, keyTier)} (key items); recall ${ratio(found, expected)}; ` +
        `missed: ${missed.join("; ")}; unlabelled: ${unlabelled.length ? unlabelled.join("; ") : "none"}`,
    );
    // The sample is every item found: a changed extraction is labelled again (a few new items may wait).
    expect(unlabelled.length).toBeLessThanOrEqual(Math.floor(judged * 0.1));
    expect(judged).toBeGreaterThanOrEqual(55);
    expect(key / judged).toBeGreaterThanOrEqual(0.75);
    expect(keyTierKey / keyTier).toBeGreaterThanOrEqual(0.9);
    expect(found / expected).toBeGreaterThanOrEqual(0.8);
  });
});
