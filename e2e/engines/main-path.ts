/**
 * A person's main path through Cutpoint, step by step, for any engine: load, the example, import
 * of the real pi fixture, the review, moving the cut, an offline summary, Confirm, Undo, export
 * (the file's bytes as Chromium's), reload, and the agent against the mock server writing a file.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getChatRequests, MOCK_BASE_URL, scriptReplies, setModels, uniqueKey } from "../mock/client.ts";
import {
  EXAMPLE_TITLE,
  MOCK_MODELS,
  PI_FIXTURE,
  PI_FIXTURE_ENTRIES,
  PI_FIXTURE_FIRST_USER,
  TID,
  tid,
  UI,
} from "../pages/app-knowledge.ts";
import { button, byTestId, type EnginePage } from "./engine-page.ts";
import { elementScript, findScript } from "./page-scripts.ts";

export interface PathContext {
  page: EnginePage;
  /** What the export of the imported fixture must begin with: Chromium's export of it (the CLI's migrate). */
  fixtureExport: Buffer;
  /** Carried between steps. */
  exported?: Buffer;
}

export interface Step {
  name: string;
  /** Steps that must have passed first (the app's state they leave is this step's start). */
  needs: string[];
  run(c: PathContext): Promise<void>;
}

/** Keeps a file to look at (in CUTPOINT_ENGINES_OUT, when set). */
function keep(c: PathContext, name: string, bytes: Buffer): void {
  const out = process.env.CUTPOINT_ENGINES_OUT;
  if (!out) return;
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `${c.page.d.engine}-${name}`), bytes);
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

/** The JSON lines of a file. */
function lines(bytes: Buffer): Record<string, unknown>[] {
  return bytes
    .toString("utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const SETTINGS = UI.settingsDialog;
const toastWith = (text: string) => ({ css: tid(TID.toast), name: text, partial: true });

export const MAIN_PATH: Step[] = [
  {
    name: "load",
    needs: [],
    run: async ({ page }) => {
      await page.goto();
      await page.waitShown(button(UI.openExample), "the welcome view's example button");
    },
  },
  {
    name: "example",
    needs: ["load"],
    run: async ({ page }) => {
      await page.click(button(UI.openExample));
      await page.waitText(byTestId(TID.sessionTitle), `^${EXAMPLE_TITLE}$`, "the session title", 60_000);
      await page.waitShown({ css: `${tid("timeline")} li` }, "the example's timeline rows");
    },
  },
  {
    name: "import",
    needs: ["load"],
    run: async ({ page }) => {
      const input = byTestId(TID.importInput, { hidden: true });
      await page.waitFor("the import input", (t, find) => (find(t) ? true : "not there"), input);
      if (!(await page.d.setFile(findScript(input), PI_FIXTURE))) throw new Error("no import input");
      await page.waitEntryCount(PI_FIXTURE_FIRST_USER, PI_FIXTURE_ENTRIES);
      await page.waitText(byTestId(TID.pathCount), `^${PI_FIXTURE_ENTRIES} entries on the path$`, "", 60_000);
      await page.waitShown(byTestId(TID.contextMeter), "the context meter", 60_000);
    },
  },
  {
    name: "review",
    needs: ["import"],
    run: async ({ page }) => {
      await page.click(byTestId(TID.contextMeter), "the context meter");
      await page.waitShown(byTestId(TID.tokenTimelinePanel), "the token timeline");
      await page.waitText(
        byTestId(TID.cutHandle),
        "keeps [\\d,]+ tokens · [\\d,]+ messages?",
        "the cut handle",
      );
      await page.waitShown({ css: ".cp-row.band-kept" }, "the kept band of the plan");
    },
  },
  {
    name: "move the cut",
    needs: ["review"],
    run: async ({ page }) => {
      const handle = byTestId(TID.cutHandle);
      const before = await page.text(handle);
      await page.d.evaluate(elementScript(handle, (el) => (el as HTMLElement).focus(), null));
      await page.press("ArrowUp");
      await page.waitFor(
        "the cut handle moved (keeps more)",
        (a, find) => {
          const el = find(a.t);
          if (!el) return "no handle";
          if (document.activeElement !== el) return "the handle lost the focus";
          return el.textContent !== a.before ? true : `still "${a.before}"`;
        },
        { t: handle, before },
      );
      // Enter opens the review of the plan with the moved cut.
      await page.press("Enter");
      await page.waitShown(byTestId(TID.compactionPreview), "the compaction review");
      await page.waitText(
        byTestId(TID.previewNumbers),
        // Before a draft: the typical size, and the bound ("≈ 22,338 tokens, at most 41,637 (−88 %)").
        "[\\d,]+ → ≈ [\\d,]+ tokens(, at most [\\d,]+)? \\(−\\d+ %\\)",
        "its numbers",
      );
    },
  },
  {
    name: "offline summary",
    needs: ["move the cut"],
    run: async ({ page }) => {
      await page.click(byTestId(TID.offline), "Offline summary");
      await page.waitText(byTestId(TID.previewStatus), "Offline draft ready", "the review's status", 60_000);
      await page.waitText(byTestId(TID.summaryEditor), "generated offline", "the summary editor");
    },
  },
  {
    name: "confirm",
    needs: ["offline summary"],
    run: async ({ page }) => {
      await page.click(byTestId(TID.confirm), "Confirm");
      await page.waitShown(toastWith(UI.compactedToast), "the Compacted toast");
      await page.waitText(toastWith(UI.compactedToast), "Compacted .* → .* tokens", "the Compacted toast");
      await page.waitEntryCount(PI_FIXTURE_FIRST_USER, "1,003", 30_000);
    },
  },
  {
    name: "undo",
    needs: ["confirm"],
    run: async ({ page }) => {
      await page.click({
        css: "button",
        name: UI.undo,
        within: tid(TID.toast),
        withinText: UI.compactedToast,
      });
      await page.waitEntryCount(PI_FIXTURE_FIRST_USER, "1,004", 30_000);
    },
  },
  {
    name: "export",
    needs: ["undo"],
    run: async (c) => {
      const bytes = await c.page.exportOpen();
      c.exported = bytes;
      // The imported session's lines are Chromium's export of it, byte for byte; then the
      // compaction and the move that undid it.
      const head = bytes.subarray(0, c.fixtureExport.length);
      if (!head.equals(c.fixtureExport)) {
        keep(c, "export.jsonl", bytes);
        throw new Error("the export does not begin with the fixture's export, byte for byte");
      }
      const added = lines(bytes.subarray(c.fixtureExport.length));
      check(added.length === 2, `2 entries after the fixture's, found ${added.length}`);
      const [compaction, move] = added as [Record<string, unknown>, Record<string, unknown>];
      check(compaction.type === "compaction", `a compaction first, found ${String(compaction.type)}`);
      check(
        String(compaction.summary).includes("generated offline"),
        "the offline summary in the compaction",
      );
      check(
        move.type === "custom" &&
          move.customType === "cutpoint.move" &&
          move.parentId === compaction.parentId,
        "then the move of Undo, beside the compaction",
      );
      check(
        (move.data as { targetId?: unknown } | undefined)?.targetId === compaction.parentId,
        "the move goes back to before the compaction",
      );
    },
  },
  {
    name: "reload",
    needs: ["export"],
    run: async (c) => {
      await c.page.reload();
      await c.page.waitEntryCount(PI_FIXTURE_FIRST_USER, "1,004", 60_000);
      await c.page.click(
        { css: UI.sessionOpen, within: UI.sessionItem, withinText: PI_FIXTURE_FIRST_USER },
        "the imported session in the list",
      );
      await c.page.waitText(byTestId(TID.pathCount), "entries on the path", "", 60_000);
      const before = c.exported;
      if (!before) throw new Error("no export before the reload");
      // The same bytes are expected: wait for as many.
      const again = await c.page.exportOpen((b) => b.length >= before.length);
      if (!again.equals(before)) {
        keep(c, "export-before-reload.jsonl", before);
        keep(c, "export-after-reload.jsonl", again);
        throw new Error(
          `the export after a reload differs from the one before (${again.length} / ${before.length} bytes)`,
        );
      }
    },
  },
  {
    name: "agent with a tool write",
    needs: ["load"],
    run: async ({ page }) => {
      const key = uniqueKey(`engine-${page.d.engine}`);
      await setModels(key, { models: MOCK_MODELS });
      await page.click(button(UI.settings));
      await page.waitShown({ css: SETTINGS }, "the Settings dialog");
      const provider = { css: "select", label: UI.provider, within: SETTINGS };
      await page.select(provider, "custom", "Provider");
      // Saved (the "no provider" choice is gone) before the next field saves the settings again.
      await page.waitFor(
        "the provider saved",
        (t, find) => {
          const el = find(t) as HTMLSelectElement | null;
          return el && el.value === "custom" && !el.querySelector("option[disabled]") ? true : "not yet";
        },
        provider,
      );
      await page.type({ css: "input", label: UI.baseUrl, within: SETTINGS }, MOCK_BASE_URL, "Base URL");
      await page.press("Enter");
      await page.type({ css: "input", label: UI.apiKey, within: SETTINGS }, key, "API key");
      await page.click(button(UI.saveKey, SETTINGS));
      await page.waitShown(byTestId(TID.apiKeyDisplay), "the saved key");
      await page.waitText(
        byTestId(TID.modelsStatus),
        `${MOCK_MODELS.length} models listed`,
        "the model list",
      );
      await page.select(
        { css: "select", label: UI.defaultModel, within: SETTINGS },
        "mock-model",
        "Default model",
      );
      await page.waitShown(
        { css: "*", name: "Limits of “mock-model”", partial: true, within: SETTINGS },
        "the model's limits",
      );
      await page.click(button(UI.done, SETTINGS));
      await page.waitGone({ css: SETTINGS }, "the Settings dialog");

      await page.click(button(UI.newSession), "+ New");
      await page.waitShown(byTestId(TID.composer), "the composer");
      const file = `notes-${key.slice(-8)}.md`;
      const content = "# Notes\nwritten by the agent\n";
      await scriptReplies(key, [
        { text: "Creating the file.", toolCalls: [{ name: "write", arguments: { path: file, content } }] },
        { text: ["The file ", "is written."] },
      ]);
      const message = { css: "textarea", label: UI.message };
      await page.type(message, "Write a notes file", "the message box");
      // Sending waits for the session to be read: Send is enabled once it can go.
      await page.waitFor("Send enabled", (t, find) => (find(t) ? true : "disabled or missing"), {
        css: "button[type=submit]:not([disabled])",
        name: "Send",
        within: tid(TID.composer),
      });
      await page.press("Enter");
      const run = tid(TID.agentRun);
      await page.waitText({ css: run }, "The file is written\\.", "the agent's reply", 60_000);
      await page.waitFor(
        "one tool call and its result",
        (a) => {
          const calls = document.querySelectorAll(`${a.run} ${a.call}`).length;
          const results = document.querySelectorAll(`${a.run} ${a.result}`).length;
          return calls === 1 && results === 1 ? true : `${calls} calls, ${results} results`;
        },
        { run, call: tid(TID.toolCall), result: tid(TID.toolResult) },
      );
      await page.click(button(UI.files, tid(TID.composer)), "Files");
      const panel = tid(TID.workspacePanel);
      await page.click(button(file, panel), `the file ${file}`);
      await page.waitText(
        { css: tid(TID.fileContent), within: panel },
        `^${content.replace(/\n/g, "\\n")}$`,
        "the file's content",
      );
      const chats = await getChatRequests(key);
      check(chats.length === 2, `2 chat requests, the mock got ${chats.length}`);
      const second = JSON.stringify((chats[1]!.body as { messages: unknown }).messages);
      check(second.includes('"role":"tool"'), "the second request carries the tool result");
    },
  },
];
