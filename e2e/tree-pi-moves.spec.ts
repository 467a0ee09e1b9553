/**
 * Moves pi can see (issue 12): Continue from here, Edit and resend and the branch switcher write
 * `custom` "cutpoint.move" entries; a compaction with the offline summary is undone (a move back);
 * the export ends with a move whose parent is the position the app shows, and pi 1.6 itself opens
 * the file there with the same context; re-importing it and reloading keep the position and what
 * the model sees. The timeline never shows a move as a row; the switcher counts see through moves.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { assistant, msg, user } from "../src/core/session/test-builders.ts";
import { composerInput, parseJsonl, send, setUpProvider, waitIdle } from "./agent-helpers.ts";
import { piView } from "./lib/pi-oracle.ts";
import { writeSessionFile } from "./lib/session-file.ts";
import { scriptReplies, uniqueKey } from "./mock/client.ts";
import { AppPage, topBarButton } from "./pages/app-page.ts";

test.setTimeout(180_000);

const SHOTS = "/tmp/shots-moves";
const MOVE = "cutpoint.move";
/** Long replies (≈ 3,000 tokens each): a path of ten turns is worth compacting (keep-recent 20k). */
const long = (tag: string) => `${tag} ${"lorem ipsum dolor sit amet ".repeat(440)}`;

/**
 * Fourteen turns u1 → a1 → … → u14 → a14 (the leaf), and a side branch from a10: u11b → a11b.
 * Order of siblings under a10: u11b (written first), then u11.
 */
function writeSession(): { path: string; text: string; id: string } {
  const entries = [];
  let parent: string | null = null;
  for (let t = 1; t <= 14; t++) {
    // The side branch is written first (the leaf on load is the last entry: a14).
    if (t === 11) {
      entries.push(msg("u11b", "a10", user("question 11, the other way")));
      entries.push(msg("a11b", "u11b", assistant(long("side answer"), "mock-model", "custom")));
    }
    entries.push(msg(`u${t}`, parent, user(`question ${t}`)));
    entries.push(msg(`a${t}`, `u${t}`, assistant(long(`answer ${t}`), "mock-model", "custom")));
    parent = `a${t}`;
  }
  return writeSessionFile("pi-moves", entries);
}

const navDialog = (page: Page) => page.locator('dialog[data-dialog="navigate"]');

async function skipSummary(page: Page): Promise<void> {
  const nav = navDialog(page);
  await expect(nav).toBeVisible();
  await nav.getByRole("button", { name: "Skip summary" }).click();
  await expect(nav).toBeHidden();
}

async function exportFile(page: Page): Promise<{ path: string; text: string }> {
  const download = page.waitForEvent("download");
  await (await topBarButton(page, "Export")).click();
  const path = await (await download).path();
  return { path, text: readFileSync(path, "utf8") };
}

/** The id of the entry the tree highlights as current (the tree is closed again after). */
async function shownPosition(page: Page): Promise<string | null> {
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  const current = page.getByTestId("tree-list").locator('[aria-current="location"]');
  await expect(current).toHaveCount(1);
  const id = await current.getAttribute("data-entry-id");
  await page.getByRole("button", { name: "Close the tree" }).click();
  return id;
}

/** "N messages are sent to the model" in the token timeline's "What the model sees". */
async function modelSees(page: Page): Promise<number> {
  await page.getByTestId("context-meter").click();
  const panel = page.getByTestId("token-timeline-panel");
  await expect(panel).toBeVisible();
  await panel.getByLabel("What the model sees").check();
  const text = (await panel.getByText(/messages are sent to the model/).textContent()) ?? "";
  await panel.getByLabel("What the model sees").uncheck();
  return Number(/(\d[\d,]*) messages are sent/.exec(text)?.[1]?.replace(/,/g, "") ?? Number.NaN);
}

test("moves, a compaction undone, export: the file ends with a move pi opens where the app stands", async ({
  page,
}) => {
  const app = new AppPage(page);
  const key = uniqueKey("pi-moves");
  await app.goto();
  await setUpProvider(page, key);
  const file = writeSession();
  await app.importByPicker(file.path);
  await app.open("question 1");
  const row = (text: string | RegExp) => app.timelineRow(text);
  const rowOf = (id: string) =>
    app.timeline.locator("li").filter({ has: page.locator(`button.row-head[data-entry-id="${id}"]`) });
  /** A row's toolbar button (mounted on the row the pointer is on; the list may scroll under it). */
  const action = async (r: ReturnType<typeof row>, name: string) => {
    const button = r.getByRole("button", { name });
    await expect(async () => {
      await r.hover();
      await expect(button).toBeVisible({ timeout: 1000 });
    }).toPass();
    await button.click();
  };
  await expect(row("answer 14")).toBeVisible();

  // Continue from here on answer 13: the path ends there, no row for the move.
  await action(row("answer 13"), "Continue from here");
  await skipSummary(page);
  await expect(page.getByTestId("path-count")).toHaveText("26 entries on the path");
  await expect(row("answer 14")).toHaveCount(0);
  await expect(page.getByTestId("timeline").locator("li.k-custom")).toHaveCount(0);

  // Edit and resend question 11 (its parent is answer 10): the new message is the third branch
  // there, beside question 11 and the side branch; never "the move".
  await scriptReplies(key, [{ text: "EDITED-REPLY" }]);
  await action(rowOf("u11"), "Edit and resend");
  await skipSummary(page);
  await expect(composerInput(page)).toHaveValue("question 11");
  await send(page, "question 11, edited");
  await waitIdle(page);
  await expect(row("EDITED-REPLY")).toBeVisible();
  // The branch's first request declared the prompt and tools (a system message, as pi 1.6 writes
  // in a session that has none yet), so the new branch starts with that row, right after answer 10.
  const edited = page
    .getByTestId("timeline")
    .locator("li")
    .filter({ has: page.getByTestId("branch-position") })
    .last();
  await expect(edited).toContainText("System prompt");
  await expect(row("question 11, edited")).toBeVisible();
  await expect(edited.getByTestId("branch-position")).toHaveText("3 / 3");
  await page.screenshot({ path: `${SHOTS}/after-edit-1280.png` });

  // The switcher: back to question 11's branch, where it was left (answer 13: Continue from here
  // put the position there), then to the side branch (its tip).
  await edited.getByRole("button", { name: "Previous branch" }).click();
  await skipSummary(page);
  await expect(row("answer 13")).toBeVisible();
  await expect(row("answer 14")).toHaveCount(0);
  const q11 = rowOf("u11");
  await expect(q11.getByTestId("branch-position")).toHaveText("2 / 3");
  await q11.getByRole("button", { name: "Previous branch" }).click();
  await skipSummary(page);
  await expect(row("side answer")).toBeVisible();
  await expect(row("question 11, the other way").getByTestId("branch-position")).toHaveText("1 / 3");
  await expect(page.getByTestId("path-count")).toHaveText("22 entries on the path");
  const beforeCompaction = await modelSees(page);
  expect(beforeCompaction).toBe(22);

  // Compact with the offline summary, then Undo from the toast.
  await page.getByTestId("token-timeline-panel").getByRole("button", { name: "Compact…" }).click();
  await expect(page.getByTestId("compaction-preview")).toBeVisible();
  await page.getByTestId("offline").click();
  await expect(page.getByTestId("preview-status")).toContainText("Offline draft ready");
  await page.getByTestId("confirm").click();
  await expect(app.compactionRows()).toHaveCount(1);
  const compacted = await modelSees(page);
  expect(compacted).toBeLessThan(beforeCompaction);
  await app
    .toast(/Compacted/)
    .getByRole("button", { name: "Undo" })
    .click();
  await expect(app.compactionRows()).toHaveCount(0);
  await expect(row("side answer")).toBeVisible();
  expect(await modelSees(page)).toBe(beforeCompaction);

  // Export: the last entry is a move, and its parent is the entry the app shows as current.
  const position = await shownPosition(page);
  expect(position).toBe("a11b");
  const exported = await exportFile(page);
  const lines = parseJsonl(exported.text);
  const last = lines.at(-1)!;
  expect(last).toMatchObject({ type: "custom", customType: MOVE, parentId: position });
  expect((last.data as { targetId: unknown }).targetId).toBe(position);
  expect(lines.filter((l) => l.type === "leaf")).toEqual([]);
  // Continue, Edit and resend, two switches and the Undo: five moves, each under its target.
  const moves = lines.filter((l) => l.customType === MOVE);
  expect(moves.map((m) => m.parentId)).toEqual(["a13", "a10", "a13", "a11b", "a11b"]);
  expect(moves.every((m) => (m.data as { targetId: unknown }).targetId === m.parentId)).toBe(true);

  // pi 1.6 opens the file on that move, with the same context (skipped where pi is not installed).
  const pi = piView(exported.path);
  if (pi) {
    expect(pi.leafId).toBe(last.id);
    expect(pi.pathIds.at(-2)).toBe(position);
    expect(pi.roles.length).toBe(beforeCompaction);
  }

  // Re-import the exported file (as a copy): it opens at the same position, same context.
  const again = exported.path.replace(/$/, "-again.jsonl");
  writeFileSync(again, exported.text);
  await app.importByPicker(again);
  await app.importDialog.getByRole("button", { name: "Import as a copy" }).click();
  await expect(app.sessionItems).toHaveCount(2);
  const before = page.url();
  await app.showSidebar();
  await app.sessionItems.and(page.locator('[aria-current="false"]')).locator(".session-open").click();
  await expect.poll(() => page.url()).not.toBe(before);
  await expect(row("side answer")).toBeVisible();
  await expect(page.getByTestId("path-count")).toHaveText("22 entries on the path");
  expect(await shownPosition(page)).toBe("a11b");
  expect(await modelSees(page)).toBe(beforeCompaction);

  // A reload keeps it.
  await page.reload();
  await expect(row("side answer")).toBeVisible();
  await expect(page.getByTestId("path-count")).toHaveText("22 entries on the path");
  expect(await shownPosition(page)).toBe("a11b");
  expect(await modelSees(page)).toBe(beforeCompaction);
  await expect(row("question 11, the other way").getByTestId("branch-position")).toHaveText("1 / 3");

  // The tree: no move is a node; answer 10 has three branches; the position is highlighted.
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  const tree = page.getByTestId("tree-list");
  await expect(tree.locator('[data-entry-id="a10"]')).toContainText("3 branches");
  await expect(tree.locator(".k-custom")).toHaveCount(0);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 800]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: `${SHOTS}/tree-${width}-${scheme}.png` });
    }
  }
});

test("a fork's parent, in both forms: a link when it is in this browser, its file name when not", async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.goto();
  const parent = writeSessionFile("parent", [msg("p1", null, user("the parent session"))]);
  const file = (name: string, parentSession: string) => {
    const path = `/tmp/cutpoint-e2e/${name}-${Math.random().toString(36).slice(2, 8)}.jsonl`;
    const head = {
      type: "session",
      version: 3,
      id: `${name}-id`,
      timestamp: "2026-01-02T00:00:00.000Z",
      cwd: "/w",
    };
    const lines = [{ ...head, parentSession }, msg("c1", null, user(`child ${name}`))];
    writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    return path;
  };
  await app.importByPicker(parent.path);
  await expect(app.sessionItems).toHaveCount(1);
  // pi writes the parent's path; a parent pi made elsewhere is not in this browser.
  await app.importByPicker(
    file("from-pi", "/home/me/.pi/agent/sessions/--w--/2026-01-01T00-00-00-000Z_gone.jsonl"),
  );
  // Older Cutpoint wrote the parent's bare id.
  await app.importByPicker(file("older", parent.id));
  await expect(app.sessionItems).toHaveCount(3);

  await app.open("child from-pi");
  await expect(page.getByTestId("fork-parent")).toHaveText(
    "Forked from a session not in this browser (2026-01-01T00-00-00-000Z_gone.jsonl)",
  );
  await app.open("child older");
  const link = page.getByTestId("fork-parent").getByRole("button", { name: "“the parent session”" });
  await expect(link).toBeVisible();
  await page.setViewportSize({ width: 800, height: 600 });
  await page.screenshot({ path: `${SHOTS}/fork-parent-800.png` });
  await link.click();
  await expect(app.timelineRow("the parent session")).toBeVisible();
  await expect(page.getByTestId("fork-parent")).toHaveCount(0);
});
